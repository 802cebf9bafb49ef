// Metrics read from the database at scrape time: active keys expiring within 30 days in all
// stores (one number: no store handle, no key id), and the webhook backlog and attempt outcomes.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const DAY = 86_400_000;

/** Samples of one metric as `{labels} value` strings, sorted. */
async function samples(t: TestApp, name: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: '/metrics' });
  assert.equal(res.statusCode, 200, res.body);
  return res.body
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => line.slice(name.length))
    .sort();
}

describeTenantApp(
  'metrics read from the database',
  { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }, tenant: false },
  (suite) => {
    it('counts active keys expiring within 30 days in all stores, without a label; revoked, expired and distant keys are left out', async () => {
      const soon = await suite.t.createStore();
      const later = await suite.t.createStore();
      const keyIds: string[] = [];
      for (const days of [10, 29, 31])
        keyIds.push(
          (
            await suite.t.ctx.keys.issue({
              storeId: soon.id,
              application: 'a',
              scopes: ['read_blog'],
              expiresInDays: days,
            })
          ).keyId,
        );
      const revoked = await suite.t.ctx.keys.issue({
        storeId: soon.id,
        application: 'a',
        scopes: ['read_blog'],
        expiresInDays: 5,
      });
      await suite.t.ctx.keys.revoke(revoked.keyId);
      await suite.t.issueKey(later, ['read_blog'], { expiresInDays: 400 });
      await suite.t.issueKey(later, ['read_blog'], { expiresInDays: null });

      assert.deepEqual(await samples(suite.t, 'blog_api_keys_expiring'), [' 2']);
      // A key of a second store expiring soon counts in the same number.
      const other = await suite.t.createStore();
      await suite.t.issueKey(other, ['read_blog'], { expiresInDays: 20 });
      assert.deepEqual(await samples(suite.t, 'blog_api_keys_expiring'), [' 3']);
      const text = (await suite.t.request({ method: 'GET', url: '/metrics' })).body;
      for (const id of [...keyIds, revoked.keyId, soon.handle, other.handle, later.handle])
        assert.ok(!text.includes(id), `metrics mention ${id}`);

      // 11 days on: the 10-day key has expired (no longer counted), the 31-day one has come within 30.
      suite.t.clock.advance(11 * DAY);
      assert.deepEqual(await samples(suite.t, 'blog_api_keys_expiring'), [' 3']);
      // 19 more: the 31-day key is left, a day from expiry (the 20-day one has expired); then none.
      suite.t.clock.advance(19 * DAY);
      assert.deepEqual(await samples(suite.t, 'blog_api_keys_expiring'), [' 1']);
      suite.t.clock.advance(2 * DAY);
      assert.deepEqual(await samples(suite.t, 'blog_api_keys_expiring'), [' 0']);
    });

    it('reports the webhook backlog and the age of its oldest due delivery, and counts attempts by outcome', async () => {
      const store = await suite.t.createStore();
      const key = await suite.t.issueKey(store, ['manage_webhooks']);
      assert.deepEqual(await samples(suite.t, 'blog_api_webhook_deliveries_due'), [' 0']);
      assert.deepEqual(await samples(suite.t, 'blog_api_webhook_attempts_total'), [
        '{outcome="failed"} 0',
        '{outcome="retrying"} 0',
        '{outcome="succeeded"} 0',
      ]);

      // Port 9 on loopback: nothing listens, so every attempt fails and is retried.
      const created = await suite.t.request({
        method: 'POST',
        url: '/v1/webhooks',
        key,
        body: { url: 'http://127.0.0.1:9/hook', events: ['post.created'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const sent = await suite.t.request({ method: 'POST', url: `/v1/webhooks/${created.json().id}/test`, key });
      assert.equal(sent.statusCode, 202, sent.body);

      suite.t.clock.advance(30_000);
      assert.deepEqual(await samples(suite.t, 'blog_api_webhook_deliveries_due'), [' 1']);
      assert.deepEqual(await samples(suite.t, 'blog_api_webhook_oldest_due_seconds'), [' 30']);

      await suite.t.ctx.webhookWorker.runOnce();
      assert.deepEqual(await samples(suite.t, 'blog_api_webhook_deliveries_due'), [' 0']);
      assert.deepEqual(await samples(suite.t, 'blog_api_webhook_oldest_due_seconds'), [' 0']);
      assert.deepEqual(await samples(suite.t, 'blog_api_webhook_attempts_total'), [
        '{outcome="failed"} 0',
        '{outcome="retrying"} 1',
        '{outcome="succeeded"} 0',
      ]);
    });
  },
);
