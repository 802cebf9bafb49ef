// How many statements each hot route sends to the database (a count, not a time): a cached read
// needs none on SQLite and only the version row on PostgreSQL (the one authentication query).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/test-app.js';
import { createPost } from '../helpers/posts.js';

describeEachEngine('statements per request', (target) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target);
  });
  after(async () => t?.close());

  const pg = target.name === 'postgres';
  /** Statements the request sent, with its status. */
  const count = async (opts: RequestOptions) => {
    const before = t.ctx.queryCount();
    const res = await t.request(opts);
    return { status: res.statusCode, statements: t.ctx.queryCount() - before, body: res.body };
  };

  it('a cached read: none on SQLite, the version row on PostgreSQL', async () => {
    const { key } = await t.tenant();
    const post = await createPost(t, key);
    for (const url of [`/v1/blog/posts/${post.id}`, '/v1/blog/posts?limit=20', '/v1/me']) {
      assert.equal((await count({ method: 'GET', url, key })).status, 200);
      assert.deepEqual(await count({ method: 'GET', url, key }), { status: 200, statements: pg ? 1 : 0, body: (await t.request({ method: 'GET', url, key })).body }, url);
    }
  });

  it('a read after a write: the version row, then the read itself', async () => {
    const { key } = await t.tenant();
    const post = await createPost(t, key);
    assert.equal((await count({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key })).status, 200);
    const patched = await t.request({ method: 'PATCH', url: `/v1/blog/posts/${post.id}`, key, body: { title: 'Changed' } });
    assert.equal(patched.statusCode, 200, patched.body);
    const read = await count({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key });
    assert.equal(read.status, 200);
    assert.equal(JSON.parse(read.body).title, 'Changed');
    assert.equal(read.statements, pg ? 2 : 1);
  });

  it('a key not yet cached: one query for the key, its store and the versions', async () => {
    const fresh = await t.issueKey(await t.createStore());
    // The key (with its store and versions), then the post, which is not there.
    const first = await count({ method: 'GET', url: '/v1/blog/posts/999999', key: fresh });
    assert.deepEqual([first.status, first.statements], [404, 2]);
  });

  it('a create and a publish', async () => {
    const { key } = await t.tenant();
    await t.request({ method: 'GET', url: '/v1/me', key });
    const created = await count({ method: 'POST', url: '/v1/blog/posts', key, body: { title: 'Counted', body_html: '<p>counted</p>' }, headers: { 'idempotency-key': randomUUID() } });
    assert.equal(created.status, 201, created.body);
    const id = JSON.parse(created.body).id;
    const published = await count({ method: 'POST', url: `/v1/blog/posts/${id}/publish`, key, body: {} });
    assert.equal(published.status, 200, published.body);
    // PostgreSQL, create: the version row; the idempotency record (one statement on its own);
    // BEGIN, the duplicate check, the post, its fingerprint, the audit event, the quota, the
    // record's completion, COMMIT, and one read for webhook endpoints listening to the event
    // (the outbox writes nothing when none is). SQLite runs the record in the shared commit (group commit),
    // with a savepoint and its release around each unit, and reads its versions in memory.
    assert.equal(created.statements, pg ? 11 : 16);
    // Publish: the post, BEGIN, the update, the audit event, the webhook endpoints listening
    // and the post's pending publish-time event (cleared), COMMIT, the post as published.
    assert.equal(published.statements, pg ? 9 : 10);
  });
});
