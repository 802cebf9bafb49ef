// Webhook delivery is fair, with real receivers: one store's hanging endpoints take at most its
// own share of the sending slots (another store's delivery goes out in the same poll), an
// endpoint that keeps timing out has its circuit opened (visible on the endpoint and its
// deliveries), and a store's queue is bounded: past the bound deliveries are held, never lost,
// and sent as the queue drains. Send timeouts run on timers the test fires; the clock is injected.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startHangingReceiver, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { WebhookWorker, type Timers } from '../../src/modules/webhooks/index.js';
import { httpSender } from '../../src/modules/webhooks/http-sender.js';
import { CIRCUIT_OPEN_MS } from '../../src/modules/webhooks/circuit-breaker.js';
import { ENDPOINT_CONCURRENCY, STORE_CONCURRENCY } from '../../src/modules/webhooks/delivery-claim.js';
import { STORE_QUEUE_LIMIT } from '../../src/modules/events/index.js';

/** Timers whose callbacks run only when the test fires them (the send timeouts). */
function manualTimers() {
  const pending: Array<{ callback: () => void; ms: number }> = [];
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const entry = { callback, ms };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (entry) => {
      const i = pending.indexOf(entry as (typeof pending)[number]);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  const fireAll = () => {
    for (const entry of pending.splice(0)) entry.callback();
  };
  return { timers, pending, fireAll };
}

describeEachEngine('webhook fairness', (target) => {
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

  const endpoint = async (key: string, url: string) => {
    const res = await t.request({ method: 'POST', url: '/v1/webhooks', key, body: { url, events: ['*'] } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string };
  };
  const inFlightOf = async (storeId: number) =>
    await t.ctx.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'endpoint_id'])
      .where('store_id', '=', storeId)
      .where('lease_token', 'is not', null)
      .execute();

  it('one store’s 10 hanging endpoints do not delay another store’s delivery beyond the poll that finds it', async () => {
    const hanging = await startHangingReceiver();
    const { timers, pending, fireAll } = manualTimers();
    const worker = new WebhookWorker(t.ctx.db, t.ctx.engine, t.clock, {
      allowPrivateTargets: true,
      sender: httpSender(timers),
    });
    const a = await t.tenant({ categories: true });
    try {
      for (let i = 0; i < 10; i++) await endpoint(a.key, `${hanging.base}/a${i}`);
      const created = await t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key: a.key,
        headers: { 'idempotency-key': 'fair-cat' },
        body: { name: 'Renamed 0' },
      });
      assert.equal(created.statusCode, 201, created.body);
      for (let i = 1; i <= 6; i++) {
        const renamed = await t.request({
          method: 'PATCH',
          url: `/v1/blog/categories/${created.json().id}`,
          key: a.key,
          body: { name: `Renamed ${i}` },
        });
        assert.equal(renamed.statusCode, 200, renamed.body);
      }
      // B's event comes last: in time order every slot would go to A first.
      t.clock.advance(1000);
      const b = await t.tenant();
      const bEndpoint = await endpoint(b.key, rx.url);
      rx.clear();
      await t.request({ method: 'POST', url: `/v1/webhooks/${bEndpoint.id}/test`, key: b.key });

      const started = await worker.pollOnce();
      const aInFlight = await inFlightOf(a.store.id);
      assert.equal(aInFlight.length, STORE_CONCURRENCY, 'A takes no more than its store’s share');
      const perEndpoint = new Map<string, number>();
      for (const d of aInFlight) perEndpoint.set(d.endpoint_id, (perEndpoint.get(d.endpoint_id) ?? 0) + 1);
      assert.ok([...perEndpoint.values()].every((n) => n <= ENDPOINT_CONCURRENCY));
      assert.equal(started, STORE_CONCURRENCY + 1, 'B’s delivery was claimed in the same poll');
      await hanging.until(STORE_CONCURRENCY);
      // B's delivery completes without any of A's sends ending.
      while (rx.received.length === 0) await new Promise((r) => setImmediate(r));
      assert.equal(rx.received[0].json.type, 'webhook.test');
      assert.equal(pending.length >= STORE_CONCURRENCY, true, 'A’s sends are still hanging');
      const poll2 = await worker.pollOnce();
      assert.equal(poll2, 0, 'A’s other deliveries wait for its own slots');
    } finally {
      fireAll();
      await worker.idle();
      await hanging.close();
      // A's retries would otherwise be due in the next tests.
      await t.ctx.db.deleteFrom('webhook_deliveries').where('store_id', '=', a.store.id).execute();
    }
  });

  it('opens the circuit of an endpoint that keeps timing out, shows it, and closes it after a trial that gets an answer', async () => {
    const hanging = await startHangingReceiver();
    const { timers, fireAll } = manualTimers();
    const worker = new WebhookWorker(t.ctx.db, t.ctx.engine, t.clock, {
      allowPrivateTargets: true,
      sender: httpSender(timers),
    });
    try {
      const s = await t.tenant();
      const ep = await endpoint(s.key, `${hanging.base}/slow`);
      for (let i = 0; i < 4; i++) await t.request({ method: 'POST', url: `/v1/webhooks/${ep.id}/test`, key: s.key });
      const get = async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${ep.id}`, key: s.key })).json();
      const list = async () =>
        (await t.request({ method: 'GET', url: `/v1/webhooks/${ep.id}/deliveries`, key: s.key })).json().data;
      for (let round = 0; round < 2; round++) {
        assert.equal(await worker.pollOnce(), ENDPOINT_CONCURRENCY);
        assert.equal((await inFlightOf(s.store.id)).length, ENDPOINT_CONCURRENCY);
        await hanging.until((round + 1) * ENDPOINT_CONCURRENCY);
        fireAll(); // the sends time out
        await worker.idle();
      }
      const now = t.clock.now().getTime();
      const opened = await get();
      assert.equal(Date.parse(opened.circuit_open_until), now + CIRCUIT_OPEN_MS - (now % 1000));
      const waiting = await list();
      assert.deepEqual(
        waiting.map((d: any) => [d.status, d.waiting_reason]),
        Array(4).fill(['pending', 'circuit_open']),
      );
      t.clock.advance(60_000); // every retry is due, but the circuit is open
      assert.equal(await worker.pollOnce(), 0);
      t.clock.advance(CIRCUIT_OPEN_MS);
      hanging.answer();
      assert.equal(await worker.pollOnce(), ENDPOINT_CONCURRENCY, 'the trial after the circuit closes');
      await worker.idle();
      assert.equal((await get()).circuit_open_until, null);
      assert.deepEqual(
        (await list()).map((d: any) => d.waiting_reason),
        [null, null, null, null],
      );
    } finally {
      fireAll();
      await worker.idle();
      await hanging.close();
    }
  });

  it('holds deliveries past the store’s queue bound and sends them as the queue drains', async () => {
    const s = await t.tenant();
    const ep = await endpoint(s.key, rx.url);
    rx.clear();
    // The store already has STORE_QUEUE_LIMIT deliveries waiting for their retry.
    const now = t.clock.now().getTime();
    await t.ctx.db
      .insertInto('webhook_events')
      .values({ id: 'msg_fill', store_id: s.store.id, type: 'webhook.test', body: '{}', created_at: now })
      .execute();
    const rows = Array.from({ length: STORE_QUEUE_LIMIT }, (_, i) => ({
      id: `whd_fill${String(i).padStart(6, '0')}`,
      store_id: s.store.id,
      endpoint_id: ep.id,
      event_id: 'msg_fill',
      status: 'pending' as const,
      attempts: 1,
      last_attempt_at: now,
      last_response_status: 500,
      next_attempt_at: now + 3_600_000,
      lease_token: null,
      lease_until: null,
      created_at: now - 1000,
    }));
    for (let i = 0; i < rows.length; i += 250)
      await t.ctx.db
        .insertInto('webhook_deliveries')
        .values(rows.slice(i, i + 250))
        .execute();
    const held = (await t.request({ method: 'POST', url: `/v1/webhooks/${ep.id}/test`, key: s.key })).json();
    assert.deepEqual([held.status, held.next_attempt_at, held.waiting_reason], ['pending', null, 'store_queue_full']);
    await t.ctx.webhookWorker.runOnce();
    assert.equal(rx.received.length, 0, 'still held while the queue is full');
    await t.ctx.db.deleteFrom('webhook_deliveries').where('id', '=', 'whd_fill000000').execute();
    await t.ctx.webhookWorker.runOnce();
    assert.equal(rx.received.length, 1, 'released and sent once the queue has room');
    const [sent] = (
      await t.request({ method: 'GET', url: `/v1/webhooks/${ep.id}/deliveries?limit=1`, key: s.key })
    ).json().data;
    assert.deepEqual([sent.id, sent.status, sent.waiting_reason], [held.id, 'succeeded', null]);
    await t.ctx.db.deleteFrom('webhook_deliveries').where('event_id', '=', 'msg_fill').execute();
  });
});
