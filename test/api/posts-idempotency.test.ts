// Idempotency, the duplicate-content window and the daily quota — including races of
// concurrent requests spread over several app instances sharing one database.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, START_TIME, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { secondInstance } from '../helpers/second-instance.js';
import type { Store } from '../../src/modules/stores/index.js';

describeEachEngine('idempotency, duplicates and quotas', (target) => {
  let t: TestApp;
  let store: Store;
  let key: string;
  const extra: Array<Awaited<ReturnType<typeof secondInstance>>> = [];
  before(async () => {
    t = await startTestApp(target);
    ({ store, key } = await t.tenant());
    extra.push(await secondInstance(t), await secondInstance(t));
  });
  after(async () => {
    for (const e of extra) await e.close();
    await t?.close();
  });

  const createOn = (app: FastifyInstance, k: string, idem: string, body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/v1/blog/posts',
      headers: { authorization: `Bearer ${k}`, 'idempotency-key': idem, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const create = (idem: string, body: unknown, k = key) => createOn(t.app, k, idem, body);
  const postsOf = async (s: Store) => t.ctx.db.selectFrom('posts').select('id').where('store_id', '=', s.id).execute();

  it('replays the first status, body and Location with a new request id, adding nothing', async () => {
    const first = await create('replay-1', { title: 'Once', body_html: '<p>once</p>' });
    assert.equal(first.statusCode, 201);
    const count = (await postsOf(store)).length;
    const again = await create('replay-1', { body_html: '<p>once</p>', title: 'Once' });
    assert.equal(again.statusCode, 201);
    assert.equal(again.body, first.body);
    assert.equal(again.headers.location, first.headers.location);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.notEqual(again.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal((await postsOf(store)).length, count);
    const me = (await t.request({ method: 'GET', url: '/v1/me', key })).json();
    assert.equal(me.quotas.posts_per_day.used, count, 'a replay does not use quota');
  });

  it('a rotated key of the same application replays; another application does not share records', async () => {
    const first = await create('rotate-1', { title: 'Rotated', body_html: '<p>r</p>' });
    const rotated = await t.issueKey(store, ['write_blog']);
    const replay = await create('rotate-1', { title: 'Rotated', body_html: '<p>r</p>' }, rotated);
    assert.equal(replay.body, first.body);
    const otherApp = await t.issueKey(store, ['write_blog'], { application: 'other-app' });
    assertError(await create('rotate-1', { title: 'Rotated', body_html: '<p>r</p>' }, otherApp), 'duplicate_content', [
      { field: 'post_id', issue: String(first.json().id) },
    ]);
  });

  it('answers 409 idempotency_key_reused for different content, writing nothing', async () => {
    await create('reuse-1', { title: 'A', body_html: '<p>a</p>' });
    const count = (await postsOf(store)).length;
    assertError(await create('reuse-1', { title: 'B', body_html: '<p>b</p>' }), 'idempotency_key_reused', [
      { field: 'Idempotency-Key', issue: 'was used before with a different request' },
    ]);
    const cat = await t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key,
      headers: { 'idempotency-key': 'reuse-1' },
      body: { title: 'A', body_html: '<p>a</p>' },
    });
    assert.equal(cat.statusCode, 422, 'schema validation comes before idempotency');
    assertError(
      await t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key,
        headers: { 'idempotency-key': 'reuse-1' },
        body: { name: 'A' },
      }),
      'idempotency_key_reused',
      [{ field: 'Idempotency-Key', issue: 'was used before with a different request' }],
    );
    assert.equal((await postsOf(store)).length, count);
  });

  it('answers 409 idempotency_in_progress with Retry-After while the first request runs', async () => {
    await t.ctx.idempotency.begin({ storeId: store.id, application: 'test-app', key: 'running-1' }, 'placeholder');
    const res = await create('running-1', { title: 'R', body_html: '<p>r</p>' });
    assertError(res, 'idempotency_key_reused', [
      { field: 'Idempotency-Key', issue: 'was used before with a different request' },
    ]);
    const path = '/v1/blog/posts';
    const { sha256Hex } = await import('../../src/lib/crypto.js');
    const hash = sha256Hex(`POST ${path} {"body_html":"<p>r2</p>","title":"R2"}`);
    await t.ctx.idempotency.begin({ storeId: store.id, application: 'test-app', key: 'running-2' }, hash);
    const busy = await create('running-2', { title: 'R2', body_html: '<p>r2</p>' });
    assertError(busy, 'idempotency_in_progress', [
      { field: 'Idempotency-Key', issue: 'the first request with this key is still running' },
    ]);
    assert.equal(busy.headers['retry-after'], '2');
    assert.equal(busy.json().error.retryable, true);
    t.clock.advance(61_000);
    assert.equal(
      (await create('running-2', { title: 'R2', body_html: '<p>r2</p>' })).statusCode,
      201,
      'an abandoned attempt is taken over',
    );
    t.clock.set(START_TIME);
  });

  it('keeps records 24 hours; afterwards the same key is a new request', async () => {
    const first = await create('day-1', { title: 'Day', body_html: '<p>day</p>' });
    t.clock.advance(24 * 3600_000 - 1000);
    assert.equal((await create('day-1', { title: 'Day', body_html: '<p>day</p>' })).body, first.body);
    t.clock.advance(1000);
    const fresh = await create('day-1', { title: 'Day', body_html: '<p>day</p>' });
    assert.equal(fresh.statusCode, 201);
    assert.notEqual(fresh.json().id, first.json().id);
    t.clock.set(START_TIME);
  });

  it('does not keep a failed attempt: a retry after fixing the cause is evaluated afresh', async () => {
    const small = await t.createStore({ changes: { body_max_bytes: 10 } });
    const k = await t.issueKey(small);
    assert.equal((await create('fail-1', { title: 'F', body_html: 'x'.repeat(11) }, k)).statusCode, 413);
    await t.ctx.stores.update(small.handle, { body_max_bytes: 100 });
    assert.equal((await create('fail-1', { title: 'F', body_html: 'x'.repeat(11) }, k)).statusCode, 201);
  });

  it('answers 409 duplicate_content for the same title and body within ten minutes, naming the post', async () => {
    const first = (await create('dup-1', { title: 'Same', body_html: '<p>same</p>' })).json();
    t.clock.advance(10 * 60_000 - 1000);
    assertError(await create('dup-2', { title: ' Same ', body_html: '<p>same</p>' }), 'duplicate_content', [
      { field: 'post_id', issue: String(first.id) },
    ]);
    assert.equal((await create('dup-3', { title: 'Same', body_html: '<p>different</p>' })).statusCode, 201);
    const other = await t.tenant();
    assert.equal(
      (await create('dup-4', { title: 'Same', body_html: '<p>same</p>' }, other.key)).statusCode,
      201,
      'other stores are independent',
    );
    t.clock.advance(1000);
    assert.equal(
      (await create('dup-5', { title: 'Same', body_html: '<p>same</p>' })).statusCode,
      201,
      'after ten minutes it is new',
    );
    t.clock.set(START_TIME);
  });

  it('counts posts_per_day on the Taipei day: 429 quota_exceeded with Retry-After until midnight', async () => {
    const s = await t.createStore({ changes: { posts_per_day: 2 } });
    const k = await t.issueKey(s);
    t.clock.set('2026-09-15T15:30:00Z'); // 23:30 in Taipei
    assert.equal((await create('q-1', { title: 'Q1', body_html: 'a' }, k)).statusCode, 201);
    assert.equal((await create('q-2', { title: 'Q2', body_html: 'b' }, k)).statusCode, 201);
    assert.equal((await create('q-2', { title: 'Q2', body_html: 'b' }, k)).statusCode, 201, 'replay still answers');
    assertError(await create('q-x', { title: 'Q1', body_html: 'a' }, k), 'duplicate_content', [
      { field: 'post_id', issue: /\d+/ },
    ]);
    const res = await create('q-3', { title: 'Q3', body_html: 'c' }, k);
    assertError(res, 'quota_exceeded', [{ field: 'quotas.posts_per_day', issue: 'daily limit of 2 reached' }]);
    assert.equal(res.headers['retry-after'], String(30 * 60));
    const me = (await t.request({ method: 'GET', url: '/v1/me', key: k })).json();
    assert.deepEqual(me.quotas.posts_per_day, {
      limit: 2,
      used: 2,
      remaining: 0,
      resets_at: '2026-09-16T00:00:00+08:00',
    });
    t.clock.set('2026-09-15T16:00:00Z'); // Taipei midnight
    assert.equal((await create('q-3', { title: 'Q3', body_html: 'c' }, k)).statusCode, 201);
    t.clock.set(START_TIME);
  });

  it('race: N identical concurrent creates with one Idempotency-Key over three instances make exactly one post', async () => {
    const s = await t.createStore();
    const k = await t.issueKey(s);
    const apps = [t.app, ...extra.map((e) => e.app)];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createOn(apps[i % 3], k, 'race-same', { title: 'Race', body_html: '<p>race</p>' }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    assert.ok(
      statuses.every((c) => c === 201 || c === 409),
      JSON.stringify(statuses),
    );
    for (const r of results.filter((x) => x.statusCode === 409))
      assert.equal(r.json().error.code, 'idempotency_in_progress');
    const created = results.filter((r) => r.statusCode === 201).map((r) => r.json().id);
    assert.ok(created.length >= 1);
    assert.equal(new Set(created).size, 1, 'every 201 names the same post');
    assert.equal((await postsOf(s)).length, 1);
  });

  it('race: concurrent duplicates with different keys over three instances make exactly one post', async () => {
    const s = await t.createStore();
    const k = await t.issueKey(s);
    const apps = [t.app, ...extra.map((e) => e.app)];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createOn(apps[i % 3], k, `dup-race-${i}`, { title: 'Twin', body_html: '<p>twin</p>' }),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 201);
    assert.equal(ok.length, 1, JSON.stringify(results.map((r) => r.statusCode)));
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      assertError(r, 'duplicate_content', [{ field: 'post_id', issue: String(ok[0].json().id) }]);
    }
    assert.equal((await postsOf(s)).length, 1);
  });

  it('race: concurrent creates never exceed the daily quota', async () => {
    const s = await t.createStore({ changes: { posts_per_day: 5 } });
    const k = await t.issueKey(s, undefined, { writePerMinute: 1000, concurrency: 50 });
    const apps = [t.app, ...extra.map((e) => e.app)];
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        createOn(apps[i % 3], k, `quota-race-${i}`, { title: `QR ${i}`, body_html: `<p>${i}</p>` }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    assert.equal(statuses.filter((c) => c === 201).length, 5, JSON.stringify(statuses));
    assert.equal(statuses.filter((c) => c === 429).length, 10);
    assert.equal((await postsOf(s)).length, 5);
    const me = (await t.request({ method: 'GET', url: '/v1/me', key: k })).json();
    assert.equal(me.quotas.posts_per_day.used, 5);
  });

  // On SQLite these commit together (one transaction, a savepoint each): a create that fails
  // must take back only its own writes.
  it('concurrent creates on one instance each stand or fall alone: a duplicate and an over-quota create fail, the rest commit', async () => {
    const s = await t.createStore({ changes: { posts_per_day: 4 } });
    const k = await t.issueKey(s, undefined, { writePerMinute: 1000, concurrency: 50 });
    const post = (b: string) => ({ title: `Alone ${b}`, body_html: `<p>${b}</p>` });
    assert.equal((await create('alone-first', post('b0'), k)).statusCode, 201);
    // b0 again is a duplicate whatever the order; three of b1–b4 fit in the quota left.
    const bodies = ['b0', 'b1', 'b2', 'b3', 'b4'];
    const results = await Promise.all(bodies.map((b, i) => create(`alone-${i}`, post(b), k)));
    const byStatus = (code: number) => results.filter((r) => r.statusCode === code);
    assert.equal(byStatus(201).length, 3, JSON.stringify(results.map((r) => r.statusCode)));
    assert.equal(byStatus(409).length, 1);
    assert.equal(byStatus(409)[0].json().error.code, 'duplicate_content');
    assert.equal(byStatus(429).length, 1);
    assert.equal(byStatus(429)[0].json().error.code, 'quota_exceeded');
    const stored = await t.ctx.db
      .selectFrom('posts')
      .select(['id', 'title'])
      .where('store_id', '=', s.id)
      .orderBy('id')
      .execute();
    assert.equal(stored.length, 4);
    assert.equal(stored.filter((row) => row.title === 'Alone b0').length, 1);
    for (const created of byStatus(201)) {
      const view = created.json();
      assert.equal(created.headers.location, `/v1/blog/posts/${view.id}`);
      assert.ok(
        stored.some((row) => row.id === view.id && row.title === view.title),
        `post ${view.id} "${view.title}" is stored`,
      );
    }
    const records = await t.ctx.db
      .selectFrom('idempotency_records')
      .select(['idem_key', 'state'])
      .where('store_id', '=', s.id)
      .execute();
    assert.deepEqual(
      records.map((r) => r.state),
      ['completed', 'completed', 'completed', 'completed'],
      'failed creates leave no record; successful ones are completed',
    );
    const me = (await t.request({ method: 'GET', url: '/v1/me', key: k })).json();
    assert.equal(me.quotas.posts_per_day.used, 4);
  });
});
