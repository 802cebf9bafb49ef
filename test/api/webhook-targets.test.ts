// Where webhooks may go, with the inputs that found each gap: IPv4-compatible IPv6 addresses
// (::/96) of private IPv4 hosts, any port on a public address, URLs stored as typed, and retries
// going on after a store's webhooks were switched off. No delivery worker runs against the public
// addresses here: they are only saved (IP literals, so nothing is resolved).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { isPublicAddress } from '../../src/modules/webhooks/index.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const PRIVATE_ISSUE = 'must resolve to public internet addresses only (not loopback, private or reserved ones)';

describeTenantApp('webhook targets', { scopes: ['manage_webhooks'] }, (suite) => {
  const create = (url: string) =>
    suite.t.request({ method: 'POST', url: '/v1/webhooks', key: suite.key, body: { url, events: ['*'] } });

  it('refuses IPv4-compatible and other IPv6 forms of private IPv4 addresses, on create and on PATCH', async () => {
    const forms = [
      'https://[::127.0.0.1]/',
      'https://[::7f00:1]/',
      'https://[::a00:1]/',
      'https://[::a9fe:a9fe]/',
      'https://[::c0a8:101]/',
      'https://[::100.64.0.1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://[::ffff:0:a00:1]/',
      'https://[64:ff9b::a00:1]/',
      'https://[64:ff9b:1::1]/',
      'https://[2002:a00:1::1]/',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'https://[::]/',
      'https://[::1]/',
    ];
    for (const url of forms)
      assertError(await create(url), 'validation_failed', [{ field: 'url', issue: PRIVATE_ISSUE }]);
    const ok = await create('https://93.184.216.34/hooks');
    assert.equal(ok.statusCode, 201, ok.body);
    for (const url of forms) {
      assertError(
        await suite.t.request({ method: 'PATCH', url: `/v1/webhooks/${ok.json().id}`, key: suite.key, body: { url } }),
        'validation_failed',
        [{ field: 'url', issue: PRIVATE_ISSUE }],
      );
    }
    // The same forms of public addresses are allowed.
    for (const address of ['::8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2606:4700::1111'])
      assert.equal(isPublicAddress(address), true, address);
  });

  it('allows ports 443 and 8443 only, by default', async () => {
    for (const url of ['https://93.184.216.34:22/', 'https://93.184.216.34:6379/x', 'https://93.184.216.34:80/']) {
      assertError(await create(url), 'validation_failed', [
        { field: 'url', issue: `must use port 443 or 8443 (port ${new URL(url).port} is not allowed)` },
      ]);
    }
    assert.equal((await create('https://93.184.216.34:8443/h')).statusCode, 201);
    assert.equal((await create('https://93.184.216.34:443/h')).json().url, 'https://93.184.216.34/h');
  });

  it('stores the URL normalised: no surrounding spaces, no fragment, host in lower case', async () => {
    const res = await create(' https://93.184.216.34/in?a=1#section ');
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().url, 'https://93.184.216.34/in?a=1');
    const patched = await suite.t.request({
      method: 'PATCH',
      url: `/v1/webhooks/${res.json().id}`,
      key: suite.key,
      body: { url: 'HTTPS://93.184.216.34/Other#x' },
    });
    assert.equal(patched.json().url, 'https://93.184.216.34/Other');
    assert.equal(
      (await suite.t.request({ method: 'GET', url: `/v1/webhooks/${res.json().id}`, key: suite.key })).json().url,
      'https://93.184.216.34/Other',
    );
  });
});

describeEachEngine('webhook targets (configured)', (target) => {
  let t: TestApp;
  let rx: Receiver;
  before(async () => {
    t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_ALLOWED_PORTS: '9443' });
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  it('limits the ports to WEBHOOK_ALLOWED_PORTS, also where private targets are allowed', async () => {
    const { key } = await t.tenant({ scopes: ['manage_webhooks'] });
    assertError(
      await t.request({ method: 'POST', url: '/v1/webhooks', key, body: { url: rx.url, events: ['*'] } }),
      'validation_failed',
      [{ field: 'url', issue: `must use port 9443 (port ${new URL(rx.url).port} is not allowed)` }],
    );
  });
});

describeEachEngine('webhooks switched off', (target) => {
  let t: TestApp;
  let rx: Receiver;
  before(async () => {
    t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  it('stops retrying once the store’s webhooks are switched off', async () => {
    const store = await t.createStore();
    const key = await t.issueKey(store, ['manage_webhooks']);
    const endpoint = (
      await t.request({ method: 'POST', url: '/v1/webhooks', key, body: { url: rx.url, events: ['*'] } })
    ).json();
    rx.answer(500);
    await t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/test`, key });
    await t.ctx.webhookWorker.runOnce();
    assert.equal(rx.received.length, 1);
    const list = async () =>
      (await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries`, key })).json().data;
    assert.deepEqual(
      (await list()).map((d: any) => [d.status, d.attempts]),
      [['pending', 1]],
    );
    await t.ctx.stores.update(store.handle, { webhooks_enabled: 0 });
    // The list itself is behind the feature now; the row is read from the database.
    const rows = await t.ctx.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'next_attempt_at'])
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    assert.deepEqual(rows, [{ status: 'failed', next_attempt_at: null }]);
    t.clock.advance(3_600_000);
    await t.ctx.webhookWorker.runOnce();
    assert.equal(rx.received.length, 1, 'no retry after the switch');
  });
});
