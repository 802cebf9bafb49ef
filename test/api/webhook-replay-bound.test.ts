// A replay takes its place in the store's bounded queue like any other delivery, through HTTP on
// both engines: a replay of more events than the queue has room for leaves the oldest events due
// and the rest held (`waiting_reason: "store_queue_full"`), a receiver that never answers drains
// nothing, and the worker releases held deliveries, oldest first, when room is made. Everything is
// read through the API's own delivery listing and events feed. The sends to the receiver time out
// on timers the test fires; the clock is injected.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startHangingReceiver } from '../helpers/webhook-receiver.js';
import { WebhookWorker } from '../../src/modules/webhooks/index.js';
import { httpSender, SEND_TIMEOUT_MS } from '../../src/modules/webhooks/http-sender.js';
import { ENDPOINT_CONCURRENCY } from '../../src/modules/webhooks/delivery-claim.js';
import { STORE_QUEUE_LIMIT } from '../../src/modules/events/index.js';

/** Events written before the endpoints exist: more than the queue's bound. */
const EVENTS = STORE_QUEUE_LIMIT + 100;
/** The first events, replayed first to another endpoint of the store to take part of the queue. */
const EARLY = 300;
/** Categories renamed side by side (EVENTS and EARLY are multiples of it); a key's requests in flight are 8 by default. */
const CATEGORIES = 10;

describeEachEngine('webhook replay and the store queue bound', (target) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
  });
  after(async () => {
    await t?.close();
  });

  it('holds what a replay queues past the bound, keeps it held while the receiver hangs, and releases it oldest first', async () => {
    const store = await t.createStore({ categories: true });
    // A key whose limits let the set-up's writes through in one minute, CATEGORIES at a time.
    const key = await t.issueKey(store, undefined, {
      readPerMinute: 10_000,
      writePerMinute: 10_000,
      concurrency: CATEGORIES,
    });
    const ok = async (res: Promise<{ statusCode: number; body: string; json(): any }>, status: number) => {
      const r = await res;
      assert.equal(r.statusCode, status, r.body);
      return r.statusCode === 204 ? null : r.json();
    };
    const get = (url: string) => ok(t.request({ method: 'GET', url, key }), 200);

    // EVENTS events: categories' creations and renames, the first EARLY of them a second
    // earlier. The categories are renamed side by side, a round at a time.
    const since = t.clock.now().getTime();
    const categories: Array<{ id: number }> = [];
    for (let c = 0; c < CATEGORIES; c++) {
      categories.push(
        await ok(
          t.request({
            method: 'POST',
            url: '/v1/blog/categories',
            key,
            headers: { 'idempotency-key': `bound-${c}` },
            body: { name: `Category ${c}` },
          }),
          201,
        ),
      );
    }
    for (let written = CATEGORIES, round = 1; written < EVENTS; written += CATEGORIES, round++) {
      if (written === EARLY) t.clock.advance(1000);
      await Promise.all(
        categories.map((category, c) =>
          ok(
            t.request({
              method: 'PATCH',
              url: `/v1/blog/categories/${category.id}`,
              key,
              body: { name: `Category ${c}, ${round}` },
            }),
            200,
          ),
        ),
      );
    }
    const later = t.clock.now().getTime();
    const feed: string[] = [];
    for (let after = '0'; ;) {
      const page = await get(`/v1/events?after=${after}&limit=100`);
      feed.push(...page.data.map((e: { id: string }) => e.id));
      after = page.meta.next_cursor;
      if (!page.meta.has_more) break;
    }
    assert.equal(feed.length, EVENTS);

    t.clock.advance(1000);
    const hanging = await startHangingReceiver();
    const timers = manualTimers();
    const worker = new WebhookWorker(t.ctx.db, t.ctx.engine, t.clock, {
      allowPrivateTargets: true,
      sender: httpSender(timers),
    });
    try {
      const endpoint = (path: string) =>
        ok(
          t.request({
            method: 'POST',
            url: '/v1/webhooks',
            key,
            body: { url: `${hanging.base}${path}`, events: ['*'] },
          }),
          201,
        );
      const other = await endpoint('/other');
      const ep = await endpoint('/hooks');
      const replay = (id: string, body: object) =>
        ok(t.request({ method: 'POST', url: `/v1/webhooks/${id}/replay`, key, body }), 202);
      /** The endpoint's deliveries through the API, oldest event first, as [event id, due or held]. */
      const deliveries = async (id: string) => {
        const rows: Array<{
          event_id: string;
          status: string;
          next_attempt_at: string | null;
          waiting_reason: string;
        }> = [];
        for (let cursor = ''; ;) {
          const page = await get(`/v1/webhooks/${id}/deliveries?limit=50${cursor}`);
          rows.push(...page.data);
          if (page.meta.next_cursor === null) break;
          cursor = `&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
        }
        assert.ok(rows.every((d) => d.status === 'pending'));
        return rows
          .map((d) => [
            d.event_id,
            d.next_attempt_at === null ? `held: ${d.waiting_reason}` : `due: ${String(d.waiting_reason)}`,
          ])
          .sort((x, y) => feed.indexOf(x[0]) - feed.indexOf(y[0]));
      };
      const expected = (due: number) => feed.map((id, i) => [id, i < due ? 'due: null' : 'held: store_queue_full']);

      // Another endpoint takes EARLY places of the queue.
      const early = await replay(other.id, {
        since: new Date(since).toISOString(),
        until: new Date(later).toISOString(),
      });
      assert.equal(early.queued, EARLY);
      // The replay of every event fills the rest, oldest events first, and holds what is left.
      const replayed = await replay(ep.id, { since: new Date(since).toISOString() });
      assert.equal(replayed.queued, EVENTS);
      assert.deepEqual(await deliveries(ep.id), expected(STORE_QUEUE_LIMIT - EARLY));

      // The worker sends to a receiver that never answers: the queue does not drain, nothing is released.
      assert.equal(await worker.pollOnce(), 2 * ENDPOINT_CONCURRENCY);
      await hanging.until(2 * ENDPOINT_CONCURRENCY);
      timers.tick(SEND_TIMEOUT_MS);
      await worker.idle();
      assert.deepEqual(await deliveries(ep.id), expected(STORE_QUEUE_LIMIT - EARLY));

      // Deleting the other endpoint frees its places: the next poll releases as many held
      // deliveries, oldest first; past the bound the rest stay held.
      await ok(t.request({ method: 'DELETE', url: `/v1/webhooks/${other.id}`, key }), 204);
      assert.equal(await worker.pollOnce(), ENDPOINT_CONCURRENCY);
      await hanging.until(3 * ENDPOINT_CONCURRENCY);
      assert.deepEqual(await deliveries(ep.id), expected(STORE_QUEUE_LIMIT));
    } finally {
      timers.tick(SEND_TIMEOUT_MS);
      await worker.idle();
      await hanging.close();
    }
  });
});
