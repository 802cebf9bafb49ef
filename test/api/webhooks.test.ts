// Webhooks through HTTP on both engines, delivered to a real receiving HTTP server and verified
// with the `standardwebhooks` package as an integrator would. The delivery worker is driven by
// runOnce() with the injected clock (in production it polls once a second).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { secondInstance } from '../helpers/second-instance.js';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { startReceiver, type Received, type Receiver } from '../helpers/webhook-receiver.js';
import { solidImage } from '../helpers/image-fixtures.js';
import { deleteImage, upload } from './media-support.js';
import type { Scope } from '../../src/modules/keys/index.js';
import type { Store } from '../../src/modules/stores/index.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LEASE_MS, WebhookWorker, type Timers } from '../../src/modules/webhooks/index.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/modules/events/index.js';
import { httpSender, SEND_TIMEOUT_MS } from '../../src/modules/webhooks/http-sender.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const SCOPES: Scope[] = ['write_blog', 'publish_blog', 'write_media', 'read_audit', 'manage_webhooks'];
const HOUR = 3_600_000;

/** Verifies a received delivery exactly as a receiver would; throws when the signature or timestamp is wrong. */
function verify(r: Received, secret: string): unknown {
  return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
}

describeEachEngine('webhooks', (target) => {
  let t: TestApp;
  let rx: Receiver;
  before(async () => {
    t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    // Receivers compare webhook-timestamp with their own clock (standardwebhooks allows 5
    // minutes), so the injected clock starts at the real time.
    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  const tenant = async (): Promise<{ store: Store; key: string }> => {
    const store = await t.createStore();
    return { store, key: await t.issueKey(store, SCOPES) };
  };
  const createEndpoint = async (key: string, body: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url: '/v1/webhooks', key, body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; secret: string; [k: string]: unknown };
  };
  const deliver = () => t.ctx.webhookWorker.runOnce();
  const deliveries = async (key: string, id: string, query = '') => {
    const res = await t.request({ method: 'GET', url: `/v1/webhooks/${id}/deliveries${query}`, key });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const sendTest = async (key: string, id: string) => {
    const res = await t.request({ method: 'POST', url: `/v1/webhooks/${id}/test`, key });
    assert.equal(res.statusCode, 202, res.body);
    return res.json();
  };
  const at = (ms: number) => new Date(ms).toISOString();

  it('creates, reads, lists, changes and deletes endpoints, each change audited; the secret only in the create answer', async () => {
    const { key } = await tenant();
    const created = await createEndpoint(key, {
      url: `${rx.url}?crud`,
      events: ['post.created'],
      description: 'CRM sync',
    });
    assert.deepEqual(Object.keys(created), [
      'id',
      'url',
      'events',
      'description',
      'enabled',
      'disabled_reason',
      'circuit_open_until',
      'created_at',
      'updated_at',
      'secret',
    ]);
    assert.match(created.id, /^wh_[a-z0-9]{24}$/);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(created.secret.slice('whsec_'.length), 'base64').length >= 24);
    assert.deepEqual(
      { ...created, id: undefined, secret: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        url: `${rx.url}?crud`,
        events: ['post.created'],
        description: 'CRM sync',
        enabled: true,
        disabled_reason: null,
        circuit_open_until: null,
        created_at: undefined,
        updated_at: undefined,
        secret: undefined,
      },
    );
    const { secret, ...withoutSecret } = created;
    const read = await t.request({ method: 'GET', url: `/v1/webhooks/${created.id}`, key });
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), withoutSecret);
    const list = await t.request({ method: 'GET', url: '/v1/webhooks', key });
    assert.deepEqual(list.json(), { data: [withoutSecret] });

    const patched = await t.request({
      method: 'PATCH',
      url: `/v1/webhooks/${created.id}`,
      key,
      body: { events: ['*'], description: null, enabled: false },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(
      [patched.json().events, patched.json().description, patched.json().enabled, patched.json().disabled_reason],
      [['*'], null, false, null],
    );
    assert.equal(patched.json().secret, undefined);

    const removed = await t.request({ method: 'DELETE', url: `/v1/webhooks/${created.id}`, key });
    assert.equal(removed.statusCode, 204);
    assertError(await t.request({ method: 'GET', url: `/v1/webhooks/${created.id}`, key }), 'not_found');
    assertError(await t.request({ method: 'DELETE', url: `/v1/webhooks/${created.id}`, key }), 'not_found');

    const audit = (await t.request({ method: 'GET', url: '/v1/audit/events?resource_type=webhook', key })).json().data;
    assert.deepEqual(
      audit.map((e: any) => [e.action, e.resource_id, e.changes]),
      [
        ['webhook.deleted', created.id, []],
        ['webhook.updated', created.id, ['description', 'enabled', 'events']],
        ['webhook.created', created.id, ['url', 'events', 'description']],
      ],
    );
    assert.ok(!t.logs.join('').includes(secret), 'the secret is never logged');
  });

  it('keeps another store’s endpoints out of reach (404) and allows at most 10 per store', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const foreign = await createEndpoint(theirs.key, { url: rx.url, events: ['*'] });
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { enabled: false }],
      ['DELETE', '', undefined],
      ['POST', '/rotate-secret', undefined],
      ['POST', '/test', undefined],
      ['GET', '/deliveries', undefined],
    ] as const) {
      assertError(
        await t.request({ method, url: `/v1/webhooks/${foreign.id}${suffix}`, key: mine.key, body }),
        'not_found',
      );
    }
    for (let i = 0; i < 10; i++) await createEndpoint(mine.key, { url: `${rx.url}?n=${i}`, events: ['*'] });
    assertError(
      await t.request({ method: 'POST', url: '/v1/webhooks', key: mine.key, body: { url: rx.url, events: ['*'] } }),
      'validation_failed',
      [{ field: 'url', issue: 'a store has at most 10 webhook endpoints; delete one first' }],
    );
    assert.equal((await t.request({ method: 'GET', url: '/v1/webhooks', key: mine.key })).json().data.length, 10);
    assert.equal((await t.request({ method: 'GET', url: '/v1/webhooks', key: theirs.key })).json().data.length, 1);
  });

  it('refuses bad input with the fields named, and stores nothing', async () => {
    const { key } = await tenant();
    const post = (body: unknown) => t.request({ method: 'POST', url: '/v1/webhooks', key, body });
    assertError(await post({ url: rx.url, events: ['post.created', 'post.exploded'] }), 'validation_failed', [
      { field: 'events[1]', issue: /^is not an event type; use one of post\.created\|.*, webhook\.test, or "\*"$/ },
    ]);
    assertError(await post({ url: rx.url, events: ['*', 'post.created'] }), 'validation_failed', [
      { field: 'events', issue: '"*" stands for every event type and must be the only item' },
    ]);
    assertError(await post({ url: rx.url, events: [] }), 'validation_failed', [
      { field: 'events', issue: /fewer than 1/ },
    ]);
    assertError(await post({ url: 'not a url', events: ['*'] }), 'validation_failed', [
      { field: 'url', issue: 'must be an absolute URL, e.g. https://example.com/hooks/blog' },
    ]);
    assertError(await post({ events: ['*'], secret: 'mine' }), 'validation_failed', [
      { field: 'url', issue: 'is required' },
      { field: 'secret', issue: 'is not a recognised field' },
    ]);
    const created = await createEndpoint(key, { url: rx.url, events: ['*'] });
    assertError(
      await t.request({ method: 'PATCH', url: `/v1/webhooks/${created.id}`, key, body: {} }),
      'validation_failed',
      [{ field: 'body', issue: 'must contain at least one field' }],
    );
    assertError(
      await t.request({ method: 'PATCH', url: `/v1/webhooks/${created.id}`, key, body: { enabled: 'yes' } }),
      'validation_failed',
      [{ field: 'enabled', issue: 'must be boolean' }],
    );
    const list = (await t.request({ method: 'GET', url: '/v1/webhooks', key })).json().data;
    assert.deepEqual(
      list.map((e: any) => [e.id, e.events, e.enabled]),
      [[created.id, ['*'], true]],
    );
  });

  it('needs the manage_webhooks scope and the store’s webhooks feature; /v1/me shows both', async () => {
    const store = await t.createStore();
    const writer = await t.issueKey(store, ['write_blog']);
    assertError(await t.request({ method: 'GET', url: '/v1/webhooks', key: writer }), 'insufficient_scope', [
      { field: 'scope', issue: 'required: manage_webhooks' },
    ]);
    const manager = await t.issueKey(store, ['manage_webhooks']);
    const me = (await t.request({ method: 'GET', url: '/v1/me', key: manager })).json();
    assert.deepEqual([me.scopes, me.features.webhooks], [['manage_webhooks'], true]);
    assertError(await t.request({ method: 'GET', url: '/v1/blog/posts', key: manager }), 'insufficient_scope', [
      { field: 'scope', issue: 'required: read_blog' },
    ]);

    const endpoint = await createEndpoint(manager, { url: rx.url, events: ['*'] });
    await t.ctx.stores.update(store.handle, { webhooks_enabled: 0 });
    assertError(await t.request({ method: 'GET', url: '/v1/webhooks', key: manager }), 'feature_unavailable');
    assertError(
      await t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/test`, key: manager }),
      'feature_unavailable',
    );
    assert.equal((await t.request({ method: 'GET', url: '/v1/me', key: manager })).json().features.webhooks, false);
    // While the feature is off, changes record no events.
    const post = await createPost(t, writer);
    assert.ok(post.id);
    const rows = await t.ctx.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    assert.equal(rows.length, 0);
  });

  it('delivers every event type to a "*" endpoint, signed, and only the chosen types to a filtered one', async () => {
    rx.clear();
    const { key } = await tenant();
    const all = await createEndpoint(key, { url: `${rx.url}?all`, events: ['*'] });
    const some = await createEndpoint(key, { url: `${rx.url}?some`, events: ['post.published', 'category.created'] });

    const category = (
      await t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key,
        headers: { 'idempotency-key': 'c1' },
        body: { name: 'News' },
      })
    ).json();
    const post = await createPost(t, key, { category_ids: [category.id] });
    assert.equal(
      (await t.request({ method: 'PATCH', url: `/v1/blog/posts/${post.id}`, key, body: { title: 'Renamed' } }))
        .statusCode,
      200,
    );
    const afterUpdate = (await t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key })).json();
    assert.equal((await publish(t, key, post.id, at(t.clock.now().getTime() + HOUR))).statusCode, 200);
    assert.equal(
      (await t.request({ method: 'POST', url: `/v1/blog/posts/${post.id}/unpublish`, key })).statusCode,
      200,
    );
    const published = (await publish(t, key, post.id)).json();
    assert.equal(
      (await t.request({ method: 'POST', url: `/v1/blog/posts/${post.id}/unpublish`, key })).statusCode,
      200,
    );
    const token = assertError(
      await t.request({ method: 'DELETE', url: `/v1/blog/posts/${post.id}`, key }),
      'confirmation_required',
      [
        { field: 'confirmation_token', issue: /.+/ },
        { field: 'expires_in_seconds', issue: '300' },
        { field: 'post.title', issue: 'Renamed' },
        { field: 'post.status', issue: 'draft' },
      ],
    ).details[0].issue;
    assert.equal(
      (
        await t.request({
          method: 'DELETE',
          url: `/v1/blog/posts/${post.id}`,
          key,
          body: { confirmation_token: token },
        })
      ).statusCode,
      204,
    );
    const renamed = (
      await t.request({ method: 'PATCH', url: `/v1/blog/categories/${category.id}`, key, body: { name: 'Old news' } })
    ).json();
    assert.equal(
      (await t.request({ method: 'DELETE', url: `/v1/blog/categories/${category.id}`, key })).statusCode,
      204,
    );
    const image = await upload(t, key, await solidImage(8, 8).png().toBuffer());
    assert.equal(image.statusCode, 201, image.body);
    assert.equal((await deleteImage(t, key, image.json().id)).statusCode, 204);
    await sendTest(key, all.id);

    await deliver();
    const toAll = rx.received.filter((r) => r.path.endsWith('?all'));
    const toSome = rx.received.filter((r) => r.path.endsWith('?some'));
    assert.deepEqual(toAll.map((r) => r.json.type).sort(), [
      'category.created',
      'category.deleted',
      'category.updated',
      'image.deleted',
      'image.uploaded',
      'post.created',
      'post.deleted',
      'post.published',
      'post.scheduled',
      'post.unpublished',
      'post.unpublished',
      'post.updated',
      'webhook.test',
    ]);
    assert.deepEqual(toSome.map((r) => r.json.type).sort(), ['category.created', 'post.published']);
    for (const r of toAll) assert.deepEqual(verify(r, all.secret), r.json);
    for (const r of toSome) assert.deepEqual(verify(r, some.secret), r.json);
    for (const r of rx.received) {
      assert.match(String(r.headers['content-type']), /^application\/json/);
      assert.match(String(r.headers['webhook-id']), /^msg_[a-z0-9]{24}$/);
      assert.deepEqual(Object.keys(r.json), ['type', 'timestamp', 'data']);
      assert.match(r.json.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    }
    assert.throws(() => verify(toAll[0], some.secret), /signature/i, 'another endpoint’s secret does not verify');
    // One event, one webhook-id, whichever endpoint receives it.
    const one = (list: Received[], type: string) => list.find((r) => r.json.type === type)!;
    assert.equal(
      one(toAll, 'post.published').headers['webhook-id'],
      one(toSome, 'post.published').headers['webhook-id'],
    );

    assert.deepEqual(one(toAll, 'category.created').json.data, category);
    assert.deepEqual(one(toAll, 'category.updated').json.data, renamed);
    assert.equal(renamed.name, 'Old news');
    assert.deepEqual(one(toAll, 'category.deleted').json.data, { id: category.id });
    assert.deepEqual(one(toAll, 'post.created').json.data, post);
    assert.deepEqual(one(toAll, 'post.updated').json.data, afterUpdate);
    assert.equal(one(toAll, 'post.scheduled').json.data.status, 'scheduled');
    assert.deepEqual(one(toAll, 'post.published').json.data, published);
    assert.equal(one(toAll, 'post.unpublished').json.data.status, 'draft');
    assert.deepEqual(one(toAll, 'post.deleted').json.data, { id: post.id });
    assert.deepEqual(one(toAll, 'image.uploaded').json.data, image.json());
    assert.deepEqual(one(toAll, 'image.deleted').json.data, image.json());
    assert.equal(one(toAll, 'webhook.test').json.data.id, all.id);

    const listed = await deliveries(key, some.id);
    assert.deepEqual(
      listed.data
        .map((d: any) => [d.event_type, d.status, d.attempts, d.last_response_status, d.next_attempt_at])
        .sort(),
      [
        ['category.created', 'succeeded', 1, 200, null],
        ['post.published', 'succeeded', 1, 200, null],
      ],
    );
    await deliver();
    assert.equal(rx.received.length, toAll.length + toSome.length, 'nothing is sent twice');
  });

  it('sends a sample of a chosen content event type to one endpoint: the newest resource as the real event carries it, never in the feed', async () => {
    const { key } = await tenant();
    const only = await createEndpoint(key, { url: `${rx.url}?sample`, events: ['category.created'] });
    await createEndpoint(key, { url: `${rx.url}?sample-other`, events: ['*'] });
    // No post yet: a sample of a post event has nothing to show.
    assertError(
      await t.request({ method: 'POST', url: `/v1/webhooks/${only.id}/test`, key, body: { type: 'post.published' } }),
      'validation_failed',
      [{ field: 'type', issue: 'the store has no post to show in a sample post.published event; create one first' }],
    );
    assertError(
      await t.request({ method: 'POST', url: `/v1/webhooks/${only.id}/test`, key, body: { type: 'post.removed' } }),
      'validation_failed',
      [{ field: 'type', issue: /must be equal to one of the allowed values|must be one of/ }],
    );
    assertError(
      await t.request({ method: 'POST', url: `/v1/webhooks/${only.id}/test`, key, body: { kind: 'x' } }),
      'validation_failed',
      [{ field: 'kind', issue: /.+/ }],
    );
    await createPost(t, key, { title: 'Older' });
    const newest = await createPost(t, key, { title: 'Newest' });
    const feedBefore = (await t.request({ method: 'GET', url: '/v1/events', key })).json().data.length;
    rx.received.length = 0;
    const published = await t.request({
      method: 'POST',
      url: `/v1/webhooks/${only.id}/test`,
      key,
      body: { type: 'post.published' },
    });
    assert.equal(published.statusCode, 202, published.body);
    assert.equal(published.json().event_type, 'post.published');
    const deleted = await t.request({
      method: 'POST',
      url: `/v1/webhooks/${only.id}/test`,
      key,
      body: { type: 'post.deleted' },
    });
    assert.equal(deleted.statusCode, 202, deleted.body);
    const plain = await sendTest(key, only.id);
    assert.equal(plain.event_type, 'webhook.test');
    await deliver();
    const got = rx.received.filter((r) => r.path.endsWith('?sample'));
    const types = got.map((r) => r.json.type).sort();
    assert.deepEqual(types, ['post.deleted', 'post.published', 'webhook.test']);
    const byType = (type: string) => got.find((r) => r.json.type === type)!;
    // The newest post, exactly as GET answers it (and as a real event carries it).
    const current = (await t.request({ method: 'GET', url: `/v1/blog/posts/${newest.id}`, key })).json();
    assert.deepEqual(byType('post.published').json.data, current);
    assert.deepEqual(byType('post.deleted').json.data, { id: newest.id });
    for (const r of got) assert.deepEqual(verify(r, only.secret), r.json);
    // Sent to that endpoint alone, and not in the events feed.
    // (it got the real post.created events of the two posts, nothing else)
    assert.deepEqual(
      rx.received.filter((r) => r.path.endsWith('?sample-other')).map((r) => r.json.type),
      ['post.created', 'post.created'],
    );
    assert.equal((await t.request({ method: 'GET', url: '/v1/events', key })).json().data.length, feedBefore);
    assert.equal(
      (
        await t.request({
          method: 'GET',
          url: `/v1/events/${String(byType('post.published').headers['webhook-id'])}`,
          key,
        })
      ).statusCode,
      404,
    );
  });

  it('sends a scheduled post’s post.published when its time arrives, once across two instances', async () => {
    rx.clear();
    const { key } = await tenant();
    const endpoint = await createEndpoint(key, { url: rx.url, events: ['post.published'] });
    const other = await secondInstance(t);
    try {
      const start = t.clock.now().getTime();
      const due = start + 30_000;
      const post = await createPost(t, key);
      assert.equal((await publish(t, key, post.id, at(start + 20_000))).json().status, 'scheduled');
      // Rescheduled: the first time passes without an event.
      assert.equal((await publish(t, key, post.id, at(due))).json().status, 'scheduled');
      const dropped = await createPost(t, key);
      await publish(t, key, dropped.id, at(start + 25_000));
      await t.request({ method: 'POST', url: `/v1/blog/posts/${dropped.id}/unpublish`, key });

      // Both scan at once on PostgreSQL. Two SQLite connections in one process cannot both wait
      // for the write lock (each would block the thread the other needs), so there they take turns.
      const bothInstances = async () => {
        if (target.name === 'postgres')
          await Promise.all([t.ctx.webhookWorker.runOnce(), other.ctx.webhookWorker.runOnce()]);
        else for (const instance of [other, t]) await instance.ctx.webhookWorker.runOnce();
      };
      t.clock.set(due - 1000);
      await bothInstances();
      assert.equal(rx.received.length, 0, 'nothing before the time');
      t.clock.set(due);
      await bothInstances();
      await bothInstances();
      assert.equal(rx.received.length, 1, 'exactly one post.published');
      const [event] = rx.received;
      assert.deepEqual(verify(event, endpoint.secret), event.json);
      assert.equal(event.json.type, 'post.published');
      assert.deepEqual(
        [event.json.data.id, event.json.data.status, event.json.data.published_at],
        [post.id, 'published', event.json.timestamp],
      );
      assert.equal(Date.parse(event.json.timestamp), due);
      const read = (await t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key })).json();
      assert.deepEqual(event.json.data, read);
      t.clock.advance(60_000);
      await bothInstances();
      assert.equal(rx.received.length, 1);
    } finally {
      await other.close();
    }
  });

  it('retries a failed delivery (500, then 200) with the same webhook-id', async () => {
    const { key } = await tenant();
    const failing = await startReceiver();
    try {
      const endpoint = await createEndpoint(key, { url: failing.url, events: ['*'] });
      failing.answer(500);
      const queued = await sendTest(key, endpoint.id);
      assert.deepEqual(Object.keys(queued), [
        'id',
        'event_id',
        'event_type',
        'status',
        'attempts',
        'last_attempt_at',
        'last_response_status',
        'next_attempt_at',
        'waiting_reason',
        'created_at',
      ]);
      assert.deepEqual(
        [queued.event_type, queued.status, queued.attempts, queued.last_attempt_at, queued.last_response_status],
        ['webhook.test', 'pending', 0, null, null],
      );
      await deliver();
      assert.equal(failing.received.length, 1);
      const [first] = (await deliveries(key, endpoint.id)).data;
      assert.deepEqual(
        [first.id, first.status, first.attempts, first.last_response_status],
        [queued.id, 'pending', 1, 500],
      );
      const wait = Date.parse(first.next_attempt_at) - t.clock.now().getTime();
      assert.ok(wait >= 5000 && wait <= 6000, `first retry about 5 s later (jitter up to a fifth), got ${wait} ms`);

      await deliver();
      assert.equal(failing.received.length, 1, 'not before its time');
      t.clock.advance(6000);
      await deliver();
      assert.equal(failing.received.length, 2);
      const [a, b] = failing.received;
      assert.equal(a.headers['webhook-id'], queued.event_id);
      assert.equal(b.headers['webhook-id'], queued.event_id);
      assert.equal(a.body, b.body);
      assert.deepEqual(verify(b, endpoint.secret), b.json);
      const [done] = (await deliveries(key, endpoint.id)).data;
      assert.deepEqual(
        [done.status, done.attempts, done.last_response_status, done.next_attempt_at],
        ['succeeded', 2, 200, null],
      );
    } finally {
      await failing.close();
    }
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const { key } = await tenant();
    const own = await startReceiver();
    try {
      const endpoint = await createEndpoint(key, { url: own.url, events: ['*'] });
      const rotated = await t.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/rotate-secret`, key });
      assert.equal(rotated.statusCode, 200, rotated.body);
      const secret = rotated.json().secret as string;
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, endpoint.secret);
      assert.equal(
        (await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}`, key })).json().secret,
        undefined,
      );

      await sendTest(key, endpoint.id);
      await deliver();
      const during = own.received[0];
      assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
      assert.deepEqual(verify(during, endpoint.secret), during.json, 'the old secret still verifies');
      assert.deepEqual(verify(during, secret), during.json, 'the new secret verifies');

      t.clock.advance(24 * HOUR + 1000);
      await sendTest(key, endpoint.id);
      await deliver();
      const later = own.received[1];
      const id = String(later.headers['webhook-id']);
      const timestamp = new Date(Number(later.headers['webhook-timestamp']) * 1000);
      // The receiver's own clock is a day behind here, so the signature is compared directly.
      assert.equal(later.headers['webhook-signature'], new Webhook(secret).sign(id, timestamp, later.body));
      assert.notEqual(later.headers['webhook-signature'], new Webhook(endpoint.secret).sign(id, timestamp, later.body));
      const audit = (
        await t.request({ method: 'GET', url: `/v1/audit/events?action=webhook.secret_rotated`, key })
      ).json().data;
      assert.deepEqual(
        audit.map((e: any) => [e.resource_id, e.changes]),
        [[endpoint.id, ['secret']]],
      );
      assert.ok(!t.logs.join('').includes(secret.slice(6)), 'the secret is never logged');
    } finally {
      t.clock.set(Math.floor(Date.now() / 1000) * 1000);
      await own.close();
    }
  });

  it('delivers an event whose claim was abandoned (an instance that claimed it and died) once the lease expires', async () => {
    const { key } = await tenant();
    const own = await startReceiver();
    const other = await secondInstance(t);
    try {
      const endpoint = await createEndpoint(key, { url: own.url, events: ['*'] });
      const queued = await sendTest(key, endpoint.id);
      assert.deepEqual(await other.ctx.webhookWorker.claim(10), [queued.id]);
      await other.close();
      await deliver();
      assert.equal(own.received.length, 0, 'the claim holds');
      t.clock.advance(LEASE_MS - 1000);
      await deliver();
      assert.equal(own.received.length, 0, 'until the lease expires');
      t.clock.advance(1000);
      await deliver();
      assert.equal(own.received.length, 1);
      assert.equal(own.received[0].headers['webhook-id'], queued.event_id);
      const [done] = (await deliveries(key, endpoint.id)).data;
      assert.deepEqual([done.status, done.attempts], ['succeeded', 1]);
    } finally {
      await own.close();
    }
  });

  it('gives up after 3 days of failures, and disables an endpoint failing for 5 days', async () => {
    const { key } = await tenant();
    const down = await startReceiver();
    try {
      down.answer(...Array(100).fill(503));
      const endpoint = await createEndpoint(key, { url: down.url, events: ['*'] });
      const start = t.clock.now().getTime();
      const queued = await sendTest(key, endpoint.id);
      const attemptTimes: number[] = [];
      for (let i = 0; i < 80; i++) {
        const before = down.received.length;
        await deliver();
        if (down.received.length > before) attemptTimes.push(t.clock.now().getTime() - start);
        t.clock.advance(HOUR);
      }
      const [failed] = (await deliveries(key, endpoint.id)).data;
      assert.deepEqual(
        [failed.id, failed.status, failed.next_attempt_at, failed.last_response_status],
        [queued.id, 'failed', null, 503],
      );
      // 0, then about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then every 10 h (hour steps here), within 3 days.
      assert.equal(failed.attempts, attemptTimes.length);
      assert.ok(attemptTimes.length >= 9 && attemptTimes.length <= 12, `attempts: ${attemptTimes.length}`);
      assert.ok(attemptTimes[attemptTimes.length - 1] <= 72 * HOUR);
      assert.equal(
        (await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}`, key })).json().enabled,
        true,
        'not yet 5 days',
      );

      t.clock.set(start + 5 * 24 * HOUR);
      await sendTest(key, endpoint.id);
      await deliver();
      const disabled = (await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}`, key })).json();
      assert.deepEqual(
        [disabled.enabled, disabled.disabled_reason],
        [false, 'every delivery attempt failed for 5 days; fix the receiver, then set enabled to true'],
      );
      const [last] = (await deliveries(key, endpoint.id)).data;
      assert.deepEqual([last.status, last.next_attempt_at], ['failed', null], 'no retries to a disabled endpoint');
      await createPost(t, key);
      assert.equal((await deliveries(key, endpoint.id)).data.length, 2, 'a disabled endpoint is sent no new events');

      const enabled = await t.request({
        method: 'PATCH',
        url: `/v1/webhooks/${endpoint.id}`,
        key,
        body: { enabled: true },
      });
      assert.deepEqual([enabled.json().enabled, enabled.json().disabled_reason], [true, null]);
    } finally {
      t.clock.set(Math.floor(Date.now() / 1000) * 1000);
      await down.close();
    }
  });

  it('pages deliveries newest first with a signed cursor', async () => {
    const { key } = await tenant();
    const endpoint = await createEndpoint(key, { url: rx.url, events: ['*'] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await sendTest(key, endpoint.id)).id);
      t.clock.advance(1000);
    }
    const first = await deliveries(key, endpoint.id, '?limit=2');
    assert.deepEqual(
      first.data.map((d: any) => d.id),
      [ids[2], ids[1]],
    );
    assert.equal(first.meta.limit, 2);
    const second = await deliveries(key, endpoint.id, `?limit=2&cursor=${encodeURIComponent(first.meta.next_cursor)}`);
    assert.deepEqual(
      second.data.map((d: any) => d.id),
      [ids[0]],
    );
    assert.equal(second.meta.next_cursor, null);
    assertError(
      await t.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries?cursor=forged`, key }),
      'validation_failed',
      [{ field: 'cursor', issue: 'was not issued to this caller; omit it to start from the first page' }],
    );
    await deliver();
  });

  it('does not follow redirects, reads at most 64 KB of an answer, and gives up on an answer after 10 seconds', async () => {
    const { key } = await tenant();
    const own = await startReceiver();
    // One server for three behaviours, by path: a redirect to `own`, a 1 MB answer, no answer at all.
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const odd = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/redirect') {
          res.writeHead(307, { location: own.url }).end();
        } else if (req.url === '/large') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(Buffer.alloc(1024 * 1024, 'x'));
        } else {
          hung();
        }
      });
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
    // Send timeouts on timers the test fires.
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
    const worker = new WebhookWorker(t.ctx.db, t.ctx.engine, t.clock, {
      allowPrivateTargets: true,
      sender: httpSender(timers),
    });
    try {
      const redirect = await createEndpoint(key, { url: `${base}/redirect`, events: ['*'] });
      const large = await createEndpoint(key, { url: `${base}/large`, events: ['*'] });
      const silent = await createEndpoint(key, { url: `${base}/silent`, events: ['*'] });
      await sendTest(key, redirect.id);
      await sendTest(key, large.id);
      await worker.runOnce();
      assert.equal(own.received.length, 0, 'the redirect is not followed');
      const [redirected] = (await deliveries(key, redirect.id)).data;
      assert.deepEqual([redirected.status, redirected.last_response_status], ['pending', 307]);
      const [big] = (await deliveries(key, large.id)).data;
      assert.deepEqual([big.status, big.last_response_status], ['succeeded', 200]);

      await sendTest(key, silent.id);
      const running = worker.runOnce();
      await hanging;
      assert.deepEqual(
        pending.map((p) => p.ms),
        [SEND_TIMEOUT_MS],
      );
      pending[0].callback();
      await running;
      const [timedOut] = (await deliveries(key, silent.id)).data;
      assert.deepEqual([timedOut.status, timedOut.attempts, timedOut.last_response_status], ['pending', 1, null]);
    } finally {
      odd.closeAllConnections();
      await new Promise((r) => odd.close(r));
      await own.close();
    }
  });

  it('housekeeping removes deliveries 30 days after they finished, then their events; pending deliveries and their events stay', async () => {
    const { store, key } = await tenant();
    const a = await createEndpoint(key, { url: `${rx.url}?retention-a`, events: ['post.created'] });
    const b = await createEndpoint(key, { url: `${rx.url}?retention-b`, events: ['*'] });
    const start = t.clock.now().getTime();
    const first = await createPost(t, key, { title: 'Kept a month', body_html: '<p>delivered</p>' }, 'retention-1');
    await deliver();
    const sent = (id: string) => deliveries(key, id).then((page) => page.data.map((d: { status: string }) => d.status));
    assert.deepEqual([await sent(a.id), await sent(b.id)], [['succeeded'], ['succeeded']]);
    // A second event whose delivery never runs: still pending a month later.
    t.clock.set(start + HOUR);
    assert.equal(
      (await t.request({ method: 'PATCH', url: `/v1/webhooks/${b.id}`, key, body: { enabled: false } })).statusCode,
      200,
    );
    const second = await createPost(t, key, { title: 'Still waiting', body_html: '<p>pending</p>' }, 'retention-2');
    // This store's rows (other tests' rows share the database and the pass).
    const rows = async () => ({
      deliveries: (
        await t.ctx.db.selectFrom('webhook_deliveries').select('status').where('store_id', '=', store.id).execute()
      )
        .map((d) => d.status)
        .sort(),
      events: (await t.ctx.db.selectFrom('webhook_events').select('body').where('store_id', '=', store.id).execute())
        .map((e) => JSON.parse(e.body).data.id)
        .sort(),
    });
    const pass = async () => assert.ok((await t.ctx.housekeeping.runPass()).ran);
    assert.deepEqual(await rows(), {
      deliveries: ['pending', 'succeeded', 'succeeded'],
      events: [first.id, second.id].sort(),
    });

    // One millisecond short of 30 days after the attempts, everything stays.
    t.clock.set(start + 30 * 24 * HOUR - 1);
    await pass();
    assert.deepEqual(await rows(), {
      deliveries: ['pending', 'succeeded', 'succeeded'],
      events: [first.id, second.id].sort(),
    });
    t.clock.set(start + 30 * 24 * HOUR);
    await pass();
    assert.deepEqual(await rows(), { deliveries: ['pending'], events: [second.id] });
    assert.deepEqual([await sent(a.id), await sent(b.id)], [['pending'], []]);
    t.clock.set(start + 90 * 24 * HOUR);
    await pass();
    assert.deepEqual(
      await rows(),
      { deliveries: ['pending'], events: [second.id] },
      'a pending delivery and its event are never removed',
    );
  });

  it('checks the target again at send time: a worker that does not allow private targets sends nothing there', async () => {
    const { key } = await tenant();
    const own = await startReceiver();
    const strict = new WebhookWorker(t.ctx.db, t.ctx.engine, t.clock, {
      allowPrivateTargets: false,
    });
    try {
      const endpoint = await createEndpoint(key, { url: own.url, events: ['*'] });
      await sendTest(key, endpoint.id);
      await strict.runOnce();
      assert.equal(own.received.length, 0);
      const [refused] = (await deliveries(key, endpoint.id)).data;
      assert.deepEqual([refused.status, refused.attempts, refused.last_response_status], ['pending', 1, null]);
    } finally {
      await own.close();
    }
  });
});

describeTenantApp('webhooks in the OpenAPI document', { tenant: false }, (suite) => {
  it('describes the endpoints and, under `webhooks`, every event’s payload; the document stays valid OpenAPI 3.1', async () => {
    const { key } = await suite.t.tenant({ scopes: ['read_blog'] });
    const doc = (await suite.t.request({ method: 'GET', url: '/v1/openapi.json', key })).json();
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
    for (const path of [
      '/v1/webhooks',
      '/v1/webhooks/{id}',
      '/v1/webhooks/{id}/rotate-secret',
      '/v1/webhooks/{id}/test',
      '/v1/webhooks/{id}/deliveries',
    ])
      assert.ok(doc.paths[path], path);
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...WEBHOOK_EVENT_TYPES].sort());
    const published = doc.webhooks['post.published'].post;
    assert.deepEqual(
      published.parameters.map((p: any) => p.name),
      ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'X-Store-Handle', 'X-Event-Sequence'],
    );
    const body = published.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(body.properties), ['type', 'timestamp', 'data']);
    // Named schemas are references to components.schemas.
    const resolve = (schema: any) => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema);
    assert.ok(resolve(body.properties.data).properties.body_html, 'a post, as GET returns it');
    assert.deepEqual(
      Object.keys(
        doc.webhooks['post.deleted'].post.requestBody.content['application/json'].schema.properties.data.properties,
      ),
      ['id'],
    );
    assert.equal(
      resolve(doc.paths['/v1/webhooks'].post.responses['201'].content['application/json'].schema).properties.secret
        .type,
      'string',
    );
  });
});

describeEachEngine('webhook targets without WEBHOOK_ALLOW_PRIVATE_TARGETS', (target) => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp(target);
    key = (await t.tenant({ scopes: ['manage_webhooks'] })).key;
  });
  after(() => t?.close());

  it('refuses http, credentials, and hosts that are loopback, private, link-local or otherwise not public', async () => {
    const refuse = async (url: string, issue: string) =>
      assertError(
        await t.request({ method: 'POST', url: '/v1/webhooks', key, body: { url, events: ['*'] } }),
        'validation_failed',
        [{ field: 'url', issue }],
      );
    const notPublic = 'must resolve to public internet addresses only (not loopback, private or reserved ones)';
    await refuse('http://127.0.0.1:8080/hooks', 'must use https');
    await refuse('http://example.com/hooks', 'must use https');
    await refuse('https://user:pass@example.com/hooks', 'must not contain a user name or password');
    for (const host of [
      '127.0.0.1',
      'localhost',
      '10.0.0.8',
      '192.168.1.20',
      '172.16.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '[::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
      '0.0.0.0',
    ]) {
      await refuse(`https://${host}/hooks`, notPublic);
    }
    assert.deepEqual((await t.request({ method: 'GET', url: '/v1/webhooks', key })).json(), { data: [] });
    const created = await t.request({
      method: 'POST',
      url: '/v1/webhooks',
      key,
      body: { url: 'https://93.184.215.14/hooks', events: ['*'] },
    });
    assert.equal(created.statusCode, 201, 'a public address is accepted');
    assertError(
      await t.request({
        method: 'PATCH',
        url: `/v1/webhooks/${created.json().id}`,
        key,
        body: { url: 'https://127.0.0.1/hooks' },
      }),
      'validation_failed',
      [{ field: 'url', issue: notPublic }],
    );
  });
});
