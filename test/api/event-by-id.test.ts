// GET /v1/events/{id} through HTTP on both engines: one event of the feed by the id its webhook
// deliveries carry as webhook-id, exactly as the feed shows it; another store's, a test event's
// and an unknown id answer 404, and so does an event past the feed's retention, whether
// housekeeping has removed its row or a pending delivery still keeps it.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { upload, uniqueJpeg } from './media-support.js';
import type { Scope } from '../../src/modules/keys/index.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const SCOPES: Scope[] = ['write_blog', 'publish_blog', 'write_media', 'manage_webhooks'];
const DAY = 86_400_000;

type FeedEvent = { id: string; sequence: number; type: string; timestamp: string; handle: string; data: unknown };

describeTenantApp('one event by id', { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }, tenant: false }, (suite) => {
  const tenant = async (scopes = SCOPES) => {
    const store = await suite.t.createStore();
    return { store, key: await suite.t.issueKey(store, scopes) };
  };
  const feed = async (key: string): Promise<FeedEvent[]> => {
    const res = await suite.t.request({ method: 'GET', url: '/v1/events', key });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const get = (id: string, key: string) => suite.t.request({ method: 'GET', url: `/v1/events/${id}`, key });
  /** An endpoint for every event, so each event has a delivery (the worker is not running: they stay pending). */
  const subscribe = async (key: string) => {
    const res = await suite.t.request({
      method: 'POST',
      url: '/v1/webhooks',
      key,
      body: { url: 'https://127.0.0.1:8443/hook', events: ['*'] },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };
  /** The webhook-id of the deliveries queued for `endpoint`, as the sender sends it (the event's id). */
  const webhookIds = async (endpoint: string) =>
    (
      await suite.t.ctx.db
        .selectFrom('webhook_deliveries')
        .select('event_id')
        .where('endpoint_id', '=', endpoint)
        .orderBy('event_id')
        .execute()
    ).map((d) => d.event_id);

  it('answers each event of the feed exactly as the feed lists it, found by its webhook-id', async () => {
    const { key } = await tenant();
    const endpoint = await subscribe(key);
    const post = await createPost(suite.t, key);
    await suite.t.request({ method: 'PATCH', url: `/v1/blog/posts/${post.id}`, key, body: { title: 'Renamed' } });
    const image = await upload(suite.t, key, await uniqueJpeg());
    assert.equal(image.statusCode, 201, image.body);
    const events = await feed(key);
    assert.deepEqual(
      events.map((e) => e.type),
      ['post.created', 'post.updated', 'image.uploaded'],
    );
    assert.deepEqual(await webhookIds(endpoint), events.map((e) => e.id).sort());
    for (const event of events) {
      assert.match(event.id, /^msg_[a-z0-9]{24}$/);
      const res = await get(event.id, key);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(res.json(), event);
    }
  });

  it('answers 404 not_found for another store’s event, a webhook.test event, unknown and malformed ids', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    await createPost(suite.t, theirs.key);
    const [their] = await feed(theirs.key);
    assertError(await get(their.id, mine.key), 'not_found');
    assert.equal((await get(their.id, theirs.key)).statusCode, 200);

    const endpoint = await subscribe(mine.key);
    const test = await suite.t.request({ method: 'POST', url: `/v1/webhooks/${endpoint}/test`, key: mine.key });
    assert.equal(test.statusCode, 202, test.body);
    const [testEvent] = await webhookIds(endpoint);
    assert.match(testEvent, /^msg_/);
    assertError(await get(testEvent, mine.key), 'not_found');

    for (const id of ['msg_aaaaaaaaaaaaaaaaaaaaaaaa', 'not-an-id', 'MSG_' + their.id.slice(4), '1', `${their.id}x`])
      assertError(await get(encodeURIComponent(id), mine.key), 'not_found');
    // Longer than any id: the router refuses it before the route (docs/api-behaviour.md).
    assertError(await get('m'.repeat(201), mine.key), 'not_found');
  });

  it('answers 404 for an event past retention, also while a pending delivery keeps its row', async () => {
    const { key } = await tenant();
    const start = suite.t.clock.now().getTime();
    await createPost(suite.t, key);
    const endpoint = await subscribe(key);
    await createPost(suite.t, key);
    suite.t.clock.set(start + 10 * DAY);
    await createPost(suite.t, key);
    const [dropped, kept, recent] = await feed(key);
    suite.t.clock.set(start + 30 * DAY + 1);
    assert.ok((await suite.t.ctx.housekeeping.runPass()).ran);
    // The first event's row is gone; the second's stays for its pending delivery, past the horizon.
    const rows = await suite.t.ctx.db
      .selectFrom('webhook_events')
      .select('id')
      .where('id', 'in', [dropped.id, kept.id])
      .execute();
    assert.deepEqual(
      rows.map((r) => r.id),
      [kept.id],
    );
    assert.deepEqual(await webhookIds(endpoint), [kept.id, recent.id].sort());
    assertError(await get(dropped.id, key), 'not_found');
    assertError(await get(kept.id, key), 'not_found');
    assert.deepEqual((await get(recent.id, key)).json(), recent);
    assert.deepEqual(await feed(key), [recent]);
  });

  it('needs read_blog (write_blog implies it): 403 insufficient_scope otherwise, 401 without a key', async () => {
    const { store, key } = await tenant();
    await createPost(suite.t, key);
    const [event] = await feed(key);
    for (const scope of ['write_media', 'publish_blog', 'read_audit', 'manage_webhooks'] as Scope[]) {
      const k = await suite.t.issueKey(store, [scope]);
      assertError(await get(event.id, k), 'insufficient_scope', [{ field: 'scope', issue: 'required: read_blog' }]);
    }
    for (const scope of ['read_blog', 'write_blog'] as Scope[]) {
      const k = await suite.t.issueKey(store, [scope]);
      assert.deepEqual((await get(event.id, k)).json(), event);
    }
    assertError(await suite.t.request({ method: 'GET', url: `/v1/events/${event.id}` }), 'unauthorized');
    assertError(
      await suite.t.request({ method: 'GET', url: `/v1/events/${event.id}?types=post.*`, key }),
      'validation_failed',
      [{ field: 'types', issue: 'is not a recognised field' }],
    );
  });
});
