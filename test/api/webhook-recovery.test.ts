// Webhook recovery through HTTP on both engines, with a real receiver verifying every delivery
// with `standardwebhooks`: a delivery's attempts (in progress, interrupted, failed with the
// answer's first 1 KB, succeeded), retry, replay from the events feed, the deliveries list's
// filters, the store handle header, and every refusal in its whole envelope. The worker runs on
// the injected clock through runOnce().
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { startReceiver, type Received, type Receiver } from '../helpers/webhook-receiver.js';
import type { Scope } from '../../src/modules/keys/index.js';
import { LEASE_MS, RETRY_WINDOW_MS } from '../../src/modules/webhooks/index.js';

const SCOPES: Scope[] = ['write_blog', 'publish_blog', 'manage_webhooks'];

describeEachEngine('webhook recovery', (target) => {
  let t: TestApp;
  let rx: Receiver;
  before(async () => {
    t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    // Receivers compare webhook-timestamp with their own clock: the injected clock starts now.
    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  const tenant = async () => {
    const store = await t.createStore();
    return { store, key: await t.issueKey(store, SCOPES) };
  };
  const createEndpoint = async (key: string, body: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url: '/v1/webhooks', key, body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; secret: string };
  };
  const get = async (key: string, url: string) => {
    const res = await t.request({ method: 'GET', url, key });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const verify = (r: Received, secret: string) =>
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
  const deliver = () => t.ctx.webhookWorker.runOnce();

  it('shows each attempt (failed with the answer’s first 1 KB, then succeeded), and the store handle in a header', async () => {
    rx.clear();
    const { store, key } = await tenant();
    const endpoint = await createEndpoint(key, { url: rx.url, events: ['post.created'] });
    const post = await createPost(t, key);
    rx.answer(503);
    rx.respondWith(`busy ${'x'.repeat(2000)}`);
    try {
      await deliver();
    } finally {
      rx.respondWith('ok');
    }
    const [listed] = (await get(key, `/v1/webhooks/${endpoint.id}/deliveries`)).data;
    assert.deepEqual([listed.status, listed.attempts, listed.last_response_status], ['pending', 1, 503]);
    t.clock.set(Date.parse(listed.next_attempt_at) + 1000);
    await deliver();

    const detail = await get(key, `/v1/webhooks/${endpoint.id}/deliveries/${listed.id}`);
    assert.deepEqual(Object.keys(detail), [...Object.keys(listed), 'retry_of', 'attempt_history']);
    assert.deepEqual([detail.status, detail.attempts, detail.retry_of], ['succeeded', 2, null]);
    const [failed, succeeded] = detail.attempt_history;
    assert.equal(detail.attempt_history.length, 2);
    assert.deepEqual(Object.keys(failed), [
      'id',
      'started_at',
      'state',
      'duration_ms',
      'response_status',
      'error',
      'response_body',
    ]);
    assert.deepEqual([failed.state, failed.response_status, failed.error], ['failed', 503, null]);
    assert.equal(failed.response_body, `busy ${'x'.repeat(1019)}`, 'the first 1 KB of the answer');
    assert.deepEqual(
      [succeeded.state, succeeded.response_status, succeeded.error, succeeded.response_body],
      ['succeeded', 200, null, 'ok'],
    );
    for (const a of detail.attempt_history) {
      assert.match(a.id, /^wha_[a-z0-9]{24}$/);
      assert.ok(Number.isInteger(a.duration_ms) && a.duration_ms >= 0);
    }
    assert.ok(Date.parse(succeeded.started_at) > Date.parse(failed.started_at));
    assert.equal(rx.received.length, 2);
    const [event] = (await get(await t.issueKey(store, ['read_blog']), '/v1/events')).data;
    for (const r of rx.received) {
      assert.deepEqual(verify(r, endpoint.secret), r.json);
      assert.equal(r.headers['x-store-handle'], store.handle);
      assert.equal(r.headers['x-event-sequence'], String(event.sequence));
      assert.equal(r.headers['webhook-id'], event.id);
      assert.equal(r.json.data.id, post.id);
    }
  });

  it('an attempt without an answer records why; one being sent shows in progress, then interrupted once its claim is gone', async () => {
    // A receiver that holds the first request until told to answer.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const slow = createServer((req, res) => {
      req.resume();
      arrived();
      void released.then(() => res.end('late'));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const { key } = await tenant();
    try {
      const endpoint = await createEndpoint(key, {
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`,
        events: ['*'],
      });
      await createPost(t, key);
      const sending = deliver();
      await arrival;
      const [d] = (await get(key, `/v1/webhooks/${endpoint.id}/deliveries`)).data;
      const during = await get(key, `/v1/webhooks/${endpoint.id}/deliveries/${d.id}`);
      assert.deepEqual(
        during.attempt_history.map((a: any) => [a.state, a.duration_ms, a.response_status, a.error, a.response_body]),
        [['in_progress', null, null, null, null]],
      );
      // Past the claim's lease (as after a crash) the attempt reads as interrupted.
      const now = t.clock.now().getTime();
      t.clock.set(now + LEASE_MS + 1);
      const lapsed = await get(key, `/v1/webhooks/${endpoint.id}/deliveries/${d.id}`);
      assert.deepEqual(
        lapsed.attempt_history.map((a: any) => [a.state, a.duration_ms, a.error]),
        [['interrupted', null, 'the sending process stopped before an answer was recorded']],
      );
      t.clock.set(now);
      release();
      await sending;
      const done = await get(key, `/v1/webhooks/${endpoint.id}/deliveries/${d.id}`);
      assert.deepEqual(
        done.attempt_history.map((a: any) => [a.state, a.response_status, a.response_body]),
        [['succeeded', 200, 'late']],
      );
    } finally {
      release();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }

    // Nothing listening: the error is the connection's.
    const { key: other } = await tenant();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const dead = await createEndpoint(other, { url: `http://127.0.0.1:${port}/hooks`, events: ['*'] });
    await createPost(t, other);
    await deliver();
    const [d] = (await get(other, `/v1/webhooks/${dead.id}/deliveries`)).data;
    const detail = await get(other, `/v1/webhooks/${dead.id}/deliveries/${d.id}`);
    assert.deepEqual(
      detail.attempt_history.map((a: any) => [a.state, a.response_status, a.response_body]),
      [['failed', null, null]],
    );
    assert.match(detail.attempt_history[0].error, /ECONNREFUSED/);
  });

  it('retries a delivery that failed after the retry window as a new delivery with the same webhook-id', async () => {
    rx.clear();
    const { store, key } = await tenant();
    const endpoint = await createEndpoint(key, { url: rx.url, events: ['*'] });
    const post = await createPost(t, key);
    const start = t.clock.now().getTime();
    rx.answer(500);
    await deliver();
    // The receiver was down past the retry window: the delivery has failed for good.
    t.clock.set(start + RETRY_WINDOW_MS + 1);
    await deliver();
    const [failed] = (await get(key, `/v1/webhooks/${endpoint.id}/deliveries`)).data;
    assert.deepEqual([failed.status, failed.attempts], ['failed', 2]);
    assert.equal(
      (await get(key, `/v1/webhooks/${endpoint.id}/deliveries/${failed.id}`)).attempt_history[1].error,
      'retry window over',
    );

    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
    const retried = await t.request({
      method: 'POST',
      url: `/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`,
      key,
    });
    assert.equal(retried.statusCode, 202, retried.body);
    const retry = retried.json();
    assert.notEqual(retry.id, failed.id);
    assert.deepEqual(
      [retry.event_id, retry.event_type, retry.status, retry.attempts],
      [failed.event_id, 'post.created', 'pending', 0],
    );
    // Until it has been tried, a pending delivery cannot be retried.
    assertError(
      await t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/deliveries/${retry.id}/retry`, key }),
      'delivery_not_retryable',
      [
        {
          field: 'status',
          issue:
            'pending: the delivery is still being tried (see next_attempt_at); retry it once it has succeeded or failed',
        },
      ],
    );
    await deliver();
    const last = rx.received[rx.received.length - 1];
    assert.deepEqual(verify(last, endpoint.secret), last.json);
    assert.equal(last.headers['webhook-id'], failed.event_id);
    assert.equal(last.headers['x-store-handle'], store.handle);
    assert.equal(last.json.data.id, post.id);
    const detail = await get(key, `/v1/webhooks/${endpoint.id}/deliveries/${retry.id}`);
    assert.deepEqual([detail.status, detail.retry_of, detail.attempt_history.length], ['succeeded', failed.id, 1]);
    // A succeeded delivery can be sent again too.
    assert.equal(
      (await t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/deliveries/${retry.id}/retry`, key }))
        .statusCode,
      202,
    );

    // Refusals.
    const other = await tenant();
    const otherEndpoint = await createEndpoint(other.key, { url: rx.url, events: ['*'] });
    assertError(
      await t.request({
        method: 'POST',
        url: `/v1/webhooks/${otherEndpoint.id}/deliveries/${failed.id}/retry`,
        key: other.key,
      }),
      'not_found',
    );
    assertError(
      await t.request({
        method: 'GET',
        url: `/v1/webhooks/${otherEndpoint.id}/deliveries/${failed.id}`,
        key: other.key,
      }),
      'not_found',
    );
    assertError(
      await t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/deliveries/whd_nope/retry`, key }),
      'not_found',
    );
    assertError(
      await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries/whd_nope`, key }),
      'not_found',
    );
    assert.equal(
      (await t.request({ method: 'PATCH', url: `/v1/webhooks/${endpoint.id}`, key, body: { enabled: false } }))
        .statusCode,
      200,
    );
    assertError(
      await t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`, key }),
      'delivery_not_retryable',
      [{ field: 'enabled', issue: 'false: the endpoint is disabled; set enabled to true first' }],
    );
    assertError(
      await t.request({
        method: 'POST',
        url: `/v1/webhooks/${endpoint.id}/replay`,
        key,
        body: { since: '2026-01-01T00:00:00+08:00' },
      }),
      'delivery_not_retryable',
      [{ field: 'enabled', issue: /disabled/ }],
    );
    const writer = await t.issueKey(store, ['write_blog']);
    assertError(
      await t.request({
        method: 'POST',
        url: `/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`,
        key: writer,
      }),
      'insufficient_scope',
      [{ field: 'scope', issue: 'required: manage_webhooks' }],
    );
    await t.ctx.stores.update(store.handle, { webhooks_enabled: 0 });
    assertError(
      await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries/${failed.id}`, key }),
      'feature_unavailable',
    );
  });

  it('replays the feed’s events of a time range that the endpoint subscribes to, each verified, in bounded batches', async () => {
    rx.clear();
    const { store, key } = await tenant();
    const since = t.clock.now().getTime();
    // Written before the endpoint existed: no delivery was ever made.
    const a = await createPost(t, key);
    const b = await createPost(t, key);
    await publish(t, key, a.id);
    const category = await t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key: await t.issueKey(store, ['write_blog']),
      headers: { 'idempotency-key': 'k' },
      body: { name: 'X' },
    });
    assert.ok([201, 404].includes(category.statusCode));
    t.clock.set(since + 60_000);
    const endpoint = await createEndpoint(key, {
      url: rx.url,
      events: ['post.created', 'post.published', 'category.created'],
    });

    const replayed = await t.request({
      method: 'POST',
      url: `/v1/webhooks/${endpoint.id}/replay`,
      key,
      body: { since: new Date(since).toISOString(), types: ['post.*'] },
    });
    assert.equal(replayed.statusCode, 202, replayed.body);
    const feed = (await get(key, '/v1/events?types=post.*')).data;
    assert.deepEqual(replayed.json(), { queued: 3, first_sequence: feed[0].sequence, last_sequence: feed[2].sequence });
    await deliver();
    assert.deepEqual(rx.received.map((r) => r.headers['webhook-id']).sort(), feed.map((e: any) => e.id).sort());
    for (const r of rx.received) {
      assert.deepEqual(verify(r, endpoint.secret), r.json);
      const event = feed.find((e: any) => e.id === r.headers['webhook-id']);
      assert.deepEqual(r.json, { type: event.type, timestamp: event.timestamp, data: event.data });
    }
    assert.deepEqual(rx.received.map((r) => r.json.data.id).sort(), [a.id, a.id, b.id].sort());

    // until bounds it; an empty range queues nothing.
    const none = await t.request({
      method: 'POST',
      url: `/v1/webhooks/${endpoint.id}/replay`,
      key,
      body: { since: new Date(since - 10_000).toISOString(), until: new Date(since).toISOString() },
    });
    assert.deepEqual(none.json(), { queued: 0, first_sequence: null, last_sequence: null });

    // The deliveries list filters.
    const list = (q: string) => get(key, `/v1/webhooks/${endpoint.id}/deliveries${q}`);
    assert.equal((await list('')).data.length, 3);
    assert.deepEqual(
      (await list('?event_type=post.published')).data.map((d: any) => d.event_type),
      ['post.published'],
    );
    assert.equal((await list('?event_type=post.*')).data.length, 3);
    assert.equal((await list('?status=succeeded')).data.length, 3);
    assert.equal((await list('?status=failed')).data.length, 0);
    assert.equal((await list(`?since=${encodeURIComponent(new Date(since + 60_000).toISOString())}`)).data.length, 3);
    assert.equal((await list(`?until=${encodeURIComponent(new Date(since + 60_000).toISOString())}`)).data.length, 0);
    const paged = await list('?status=succeeded&limit=2');
    assert.equal(paged.data.length, 2);
    const rest = await list(`?status=succeeded&limit=2&cursor=${encodeURIComponent(paged.meta.next_cursor)}`);
    assert.equal(rest.data.length, 1);
    // A cursor of other filters starts again from the first page.
    const restarted = await list(`?event_type=post.*&limit=2&cursor=${encodeURIComponent(paged.meta.next_cursor)}`);
    assert.deepEqual(
      restarted.data.map((d: any) => d.id),
      (await list('?limit=2')).data.map((d: any) => d.id),
    );
    assertError(
      await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries?status=lost`, key }),
      'validation_failed',
      [{ field: 'status', issue: /.+/ }],
    );
    assertError(
      await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries?event_type=post.gone`, key }),
      'validation_failed',
      [{ field: 'event_type', issue: /^"post.gone" is not an event type/ }],
    );

    // Refusals of a replay.
    const replay = (body: unknown) =>
      t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/replay`, key, body });
    assertError(await replay({}), 'validation_failed', [{ field: 'since', issue: /.+/ }]);
    assertError(
      await replay({ since: '2026-09-14T10:00:00+08:00', until: '2026-09-14T10:00:00+08:00' }),
      'validation_failed',
      [{ field: 'until', issue: 'must be later than since' }],
    );
    assertError(
      await replay({ since: '2026-09-14T10:00:00+08:00', types: ['post.*', 'post.gone'] }),
      'validation_failed',
      [{ field: 'types[1]', issue: /^"post.gone" is not an event type/ }],
    );
    assertError(await replay({ since: '2026-09-14T10:00:00+08:00', extra: 1 }), 'validation_failed', [
      { field: 'extra', issue: /.+/ },
    ]);
    assertError(
      await t.request({
        method: 'POST',
        url: '/v1/webhooks/wh_nope/replay',
        key,
        body: { since: '2026-09-14T10:00:00+08:00' },
      }),
      'not_found',
    );

    // At most 10 000 events per replay.
    const many = 10_001;
    const at = t.clock.now().getTime() + 1000;
    // Numbered after the store's last event (SQLite takes the number given; PostgreSQL numbers them at commit).
    const last = Number(
      (await get(await t.issueKey(store, ['read_blog']), '/v1/events?limit=1&after=0')).meta.next_cursor,
    );
    const newest = Number(
      (await get(await t.issueKey(store, ['read_blog']), `/v1/events?after=${last}`)).meta.next_cursor,
    );
    await t.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < many; i += 1000) {
        const rows = Array.from({ length: Math.min(1000, many - i) }, (_, j) => ({
          id: `msg_bulk${i + j}`,
          store_id: store.id,
          type: 'post.created',
          body: '{}',
          created_at: at,
          sequence: newest + i + j + 1,
        }));
        await trx.insertInto('webhook_events').values(rows).execute();
      }
    });
    assertError(
      await replay({ since: new Date(at).toISOString(), until: new Date(at + 1000).toISOString() }),
      'validation_failed',
      [
        {
          field: 'since',
          issue: '10001 events match; a replay queues at most 10000: split the time range into several replays',
        },
      ],
    );
  });
});
