// The operator's webhook commands as a separate process against the database a running app
// uses: list a store's endpoints (never their secrets), disable one, switch the feature.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { runCli } from '../helpers/cli.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const cli = (databaseUrl: string, ...args: string[]) => runCli({ DATABASE_URL: databaseUrl }, ...args);

describeTenantApp('operator CLI: webhooks', { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }, tenant: false }, (suite) => {
  it('lists a store’s endpoints without secrets, disables one with a reason, and turns the feature off', async () => {
    const store = await suite.t.createStore();
    const key = await suite.t.issueKey(store, ['manage_webhooks']);
    const created = (
      await suite.t.request({
        method: 'POST',
        url: '/v1/webhooks',
        key,
        body: { url: 'http://127.0.0.1:9/hooks', events: ['post.created'] },
      })
    ).json();
    const db = suite.t.config.database.url;

    const listed = await cli(db, 'webhook', 'list', '--store', store.handle);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      listed.json.data.map((e: any) => [e.id, e.url, e.enabled]),
      [[created.id, 'http://127.0.0.1:9/hooks', true]],
    );
    assert.ok(!listed.stdout.includes(created.secret.slice(6)), 'no secret printed');

    const disabled = await cli(db, 'webhook', 'disable', created.id);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.deepEqual(
      [disabled.json.id, disabled.json.store, disabled.json.enabled, disabled.json.disabled_reason],
      [created.id, store.handle, false, 'disabled by the service operator'],
    );
    const read = (await suite.t.request({ method: 'GET', url: `/v1/webhooks/${created.id}`, key })).json();
    assert.deepEqual([read.enabled, read.disabled_reason], [false, 'disabled by the service operator']);

    const unknown = await cli(db, 'webhook', 'disable', 'wh_nothere');
    assert.deepEqual([unknown.code, unknown.stderr], [1, 'blog-api: no webhook endpoint with id "wh_nothere"\n']);
    const usage = await cli(db, 'webhook', 'list');
    assert.equal(usage.code, 2);

    const off = await cli(db, 'store', 'update', store.handle, '--webhooks', 'off');
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.json.features.webhooks, false);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/webhooks', key }), 'feature_unavailable');
  });
});
