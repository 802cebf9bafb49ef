// How many statements each hot route sends to the database, and how many commands to Redis (counts,
// not times). Without Redis a cached read needs no statement on SQLite and only the version row on
// PostgreSQL (the one authentication query); with Redis it makes one Redis call (the admission
// script, which on PostgreSQL also brings the store's versions) and sends PostgreSQL nothing.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RequestOptions } from '../helpers/test-app.js';
import { createPost } from '../helpers/posts.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const redisSkip = await redisSkipReason();
/** The not-awaited slot release is sent in a later turn of the event loop. */
const nextTurns = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describeTenantApp('statements per request', { tenant: false }, (suite) => {
  const pg = suite.target.name === 'postgres';
  /** Statements the request sent, with its status. */
  const count = async (opts: RequestOptions) => {
    const before = suite.t.ctx.queryCount();
    const res = await suite.t.request(opts);
    return { status: res.statusCode, statements: suite.t.ctx.queryCount() - before, body: res.body };
  };

  it('a cached read: none on SQLite, the version row on PostgreSQL', async () => {
    const { key } = await suite.t.tenant();
    const post = await createPost(suite.t, key);
    for (const url of [`/v1/blog/posts/${post.id}`, '/v1/blog/posts?limit=20', '/v1/me']) {
      assert.equal((await count({ method: 'GET', url, key })).status, 200);
      assert.deepEqual(
        await count({ method: 'GET', url, key }),
        { status: 200, statements: pg ? 1 : 0, body: (await suite.t.request({ method: 'GET', url, key })).body },
        url,
      );
    }
  });

  it('a read after a write: the version row, then the read itself', async () => {
    const { key } = await suite.t.tenant();
    const post = await createPost(suite.t, key);
    assert.equal((await count({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key })).status, 200);
    const patched = await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${post.id}`,
      key,
      body: { title: 'Changed' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const read = await count({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key });
    assert.equal(read.status, 200);
    assert.equal(JSON.parse(read.body).title, 'Changed');
    assert.equal(read.statements, pg ? 2 : 1);
  });

  it('concurrent reads of a page nobody has read yet: the page is read once', async () => {
    const { key } = await suite.t.tenant();
    for (let i = 0; i < 3; i++) await createPost(suite.t, key);
    const first = await suite.t.request({ method: 'GET', url: '/v1/blog/posts?limit=1', key });
    const url = `/v1/blog/posts?limit=1&cursor=${encodeURIComponent(JSON.parse(first.body).meta.next_cursor)}`;
    const before = suite.t.ctx.queryCount();
    const pages = await Promise.all(Array.from({ length: 8 }, () => suite.t.request({ method: 'GET', url, key })));
    assert.deepEqual(new Set(pages.map((p) => `${p.statusCode} ${p.body}`)).size, 1);
    assert.equal(pages[0]!.statusCode, 200);
    // Each request's version row (PostgreSQL), then the page and its categories once.
    assert.equal(suite.t.ctx.queryCount() - before, (pg ? 8 : 0) + 2);
  });

  it('a key not yet cached: one query for the key, its store and the versions', async () => {
    const fresh = await suite.t.issueKey(await suite.t.createStore());
    // The key (with its store and versions), then the post, which is not there.
    const first = await count({ method: 'GET', url: '/v1/blog/posts/999999', key: fresh });
    assert.deepEqual([first.status, first.statements], [404, 2]);
  });

  it('a create and a publish', async () => {
    const { key } = await suite.t.tenant();
    await suite.t.request({ method: 'GET', url: '/v1/me', key });
    // On PostgreSQL the first create of a process also takes a block of post ids (one query per 100 creates).
    const warm = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key,
      body: { title: 'Warm-up', body_html: '<p>first</p>' },
      headers: { 'idempotency-key': randomUUID() },
    });
    assert.equal(warm.statusCode, 201, warm.body);
    const created = await count({
      method: 'POST',
      url: '/v1/blog/posts',
      key,
      body: { title: 'Counted', body_html: '<p>counted</p>' },
      headers: { 'idempotency-key': randomUUID() },
    });
    assert.equal(created.status, 201, created.body);
    const id = JSON.parse(created.body).id;
    const published = await count({ method: 'POST', url: `/v1/blog/posts/${id}/publish`, key, body: {} });
    assert.equal(published.status, 200, published.body);
    // PostgreSQL, create: the version row; the idempotency record (one statement on its own);
    // then one statement writes the post, its search text, its fingerprint, the audit event,
    // the quota, the event (feed and webhook outbox) and the record's completion
    // (src/modules/posts/create-statement.ts). SQLite runs a transaction of the same rules
    // (create-transaction.ts): BEGIN, the post, its search text and its store-keyed search
    // tokens, its fingerprint's claim (which is also the duplicate check), the audit event, the
    // quota, the event (numbered in the feed by a trigger), its deliveries to the subscribed
    // endpoints (one INSERT … SELECT), the record's completion, in the shared commit (group
    // commit) with a savepoint and its release around each unit, and reads its versions in memory.
    assert.equal(created.statements, pg ? 3 : 18);
    // Publish: the post, BEGIN, the update, the audit event, the post's pending publish-time
    // event (cleared), the post as the event shows it, the event, its deliveries to the
    // subscribed endpoints (one INSERT … SELECT), COMMIT, the post as published.
    assert.equal(published.statements, pg ? 11 : 12);
  });
});

describeTenantApp(
  'statements and Redis commands per request, with Redis',
  { env: { REDIS_URL: TEST_REDIS_URL }, tenant: false, skip: redisSkip },
  (suite) => {
    const pg = suite.target.name === 'postgres';
    /**
     * Until every command issued so far has gone out and been answered: the turn's releases go
     * out at its end, and a PING issued after them is answered after all of them. Returns the
     * commands it sent.
     */
    const settle = async (): Promise<number> => {
      await nextTurns();
      await suite.t.ctx.traffic.redis!.client.ping();
      return 1;
    };
    /** Statements and Redis commands the request sent (its slot's release included), with its status. */
    const count = async (opts: RequestOptions) => {
      await settle();
      const statements = suite.t.ctx.queryCount();
      const commands = suite.t.ctx.traffic.commandCount();
      const res = await suite.t.request(opts);
      const own = await settle();
      return {
        status: res.statusCode,
        statements: suite.t.ctx.queryCount() - statements,
        redis: suite.t.ctx.traffic.commandCount() - commands - own,
        body: res.body,
      };
    };

    it('a cached read: no statement on either engine; the admission script and the release', async () => {
      const { key } = await suite.t.tenant();
      const post = await createPost(suite.t, key);
      for (const url of [`/v1/blog/posts/${post.id}`, '/v1/blog/posts?limit=20', '/v1/me']) {
        assert.equal((await count({ method: 'GET', url, key })).status, 200);
        const body = (await suite.t.request({ method: 'GET', url, key })).body;
        assert.deepEqual(await count({ method: 'GET', url, key }), { status: 200, statements: 0, redis: 2, body }, url);
      }
    });

    it('a read after a write: the version row (PostgreSQL), the read, and the versions put back in Redis', async () => {
      const { key } = await suite.t.tenant();
      const post = await createPost(suite.t, key);
      assert.equal((await count({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key })).status, 200);
      const patched = await count({
        method: 'PATCH',
        url: `/v1/blog/posts/${post.id}`,
        key,
        body: { title: 'Changed' },
      });
      assert.equal(patched.status, 200, patched.body);
      // The admission, the release, and on PostgreSQL the drop of the store's versions after the commit.
      assert.equal(patched.redis, pg ? 3 : 2);
      const read = await count({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key });
      assert.equal(read.status, 200);
      assert.equal(JSON.parse(read.body).title, 'Changed');
      assert.deepEqual([read.statements, read.redis], pg ? [2, 3] : [1, 2]);
      const again = await count({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key });
      assert.deepEqual([again.status, again.statements, again.redis, again.body], [200, 0, 2, read.body]);
    });

    it('a key not yet cached: one query for the key, its store and the versions, then one Redis call', async () => {
      const fresh = await suite.t.issueKey(await suite.t.createStore());
      const first = await count({ method: 'GET', url: '/v1/blog/posts/999999', key: fresh });
      assert.deepEqual([first.status, first.statements, first.redis], [404, 2, 2]);
    });
  },
);
