// GET /v1/events through HTTP on both engines: every content change (deletions included) in
// commit order with a per-store sequence, the cursor on every page, type filters, the errors in
// their whole envelope, retention (410) through housekeeping on the injected clock, and, on
// PostgreSQL, a transaction that commits after a later-started one (the outbox gap).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { solidImage } from '../helpers/image-fixtures.js';
import { deleteImage, upload } from './media-support.js';
import type { Scope } from '../../src/modules/keys/index.js';
import Sqlite from 'better-sqlite3';
import { recordEvent } from '../../src/modules/events/index.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const SCOPES: Scope[] = ['write_blog', 'publish_blog', 'write_media', 'manage_webhooks'];
const DAY = 86_400_000;

describeTenantApp('events feed', { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }, tenant: false }, (suite) => {
  const tenant = async (changes?: { webhooks_enabled: number }) => {
    const store = await suite.t.createStore(changes ? { changes } : {});
    return { store, key: await suite.t.issueKey(store, SCOPES) };
  };
  const feed = async (key: string, query = '') => {
    const res = await suite.t.request({ method: 'GET', url: `/v1/events${query}`, key });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    return res.json() as {
      data: Array<{ id: string; sequence: number; type: string; timestamp: string; handle: string; data: any }>;
      meta: { next_cursor: string; has_more: boolean; limit: number };
    };
  };
  const deletePost = async (key: string, id: number) => {
    const first = await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${id}`, key });
    const token = first.json().error.details[0].issue;
    assert.equal(
      (
        await suite.t.request({
          method: 'DELETE',
          url: `/v1/blog/posts/${id}`,
          key,
          body: { confirmation_token: token },
        })
      ).statusCode,
      204,
    );
  };

  it('lists every change in commit order, deletions included, with the webhook event objects, the handle and the sequence', async () => {
    // Webhooks off: the feed is for every store.
    const { store, key } = await tenant({ webhooks_enabled: 0 });
    const empty = await feed(key);
    assert.deepEqual(empty, { data: [], meta: { next_cursor: '0', has_more: false, limit: 100 } });

    const category = (
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key,
        headers: { 'idempotency-key': 'c1' },
        body: { name: 'News' },
      })
    ).json();
    const post = await createPost(suite.t, key, { category_ids: [category.id] });
    const updated = (
      await suite.t.request({ method: 'PATCH', url: `/v1/blog/posts/${post.id}`, key, body: { title: 'Renamed' } })
    ).json();
    const scheduled = (
      await publish(suite.t, key, post.id, new Date(suite.t.clock.now().getTime() + DAY).toISOString())
    ).json();
    const draft = (await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${post.id}/unpublish`, key })).json();
    await deletePost(key, post.id);
    const renamed = (
      await suite.t.request({
        method: 'PATCH',
        url: `/v1/blog/categories/${category.id}`,
        key,
        body: { name: 'Old news' },
      })
    ).json();
    assert.equal(
      (await suite.t.request({ method: 'DELETE', url: `/v1/blog/categories/${category.id}`, key })).statusCode,
      204,
    );
    const image = (await upload(suite.t, key, await solidImage(8, 8).png().toBuffer())).json();
    assert.equal((await deleteImage(suite.t, key, image.id)).statusCode, 204);

    const page = await feed(key);
    assert.deepEqual(
      page.data.map((e) => [e.sequence, e.type]),
      [
        [1, 'category.created'],
        [2, 'post.created'],
        [3, 'post.updated'],
        [4, 'post.scheduled'],
        [5, 'post.unpublished'],
        [6, 'post.deleted'],
        [7, 'category.updated'],
        [8, 'category.deleted'],
        [9, 'image.uploaded'],
        [10, 'image.deleted'],
      ],
    );
    assert.deepEqual(page.meta, { next_cursor: '10', has_more: false, limit: 100 });
    for (const e of page.data) {
      assert.deepEqual(Object.keys(e), ['id', 'sequence', 'type', 'timestamp', 'handle', 'data']);
      assert.match(e.id, /^msg_[a-z0-9]{24}$/);
      assert.equal(e.handle, store.handle);
      assert.match(e.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    }
    const data = page.data.map((e) => e.data);
    assert.deepEqual(data[0], category);
    assert.deepEqual(data[1], post);
    assert.deepEqual(data[2], updated);
    assert.deepEqual(data[3], scheduled);
    assert.deepEqual(data[4], draft);
    assert.deepEqual(data[5], { id: post.id });
    assert.deepEqual(data[6], renamed);
    assert.deepEqual(data[7], { id: category.id });
    assert.deepEqual(data[8], image);
    assert.deepEqual(data[9], image);

    // Pages of 3, following next_cursor: every event once, then an empty page keeps the cursor.
    const seen: number[] = [];
    let cursor = '';
    for (;;) {
      const p = await feed(key, `?limit=3${cursor ? `&after=${cursor}` : ''}`);
      seen.push(...p.data.map((e) => e.sequence));
      assert.equal(p.meta.limit, 3);
      cursor = p.meta.next_cursor;
      if (!p.meta.has_more) break;
    }
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(await feed(key, `?after=${cursor}`), {
      data: [],
      meta: { next_cursor: '10', has_more: false, limit: 100 },
    });

    // Another store's feed is its own.
    const other = await tenant();
    assert.deepEqual((await feed(other.key)).data, []);
    await createPost(suite.t, other.key);
    assert.deepEqual(
      (await feed(other.key)).data.map((e) => e.sequence),
      [1],
    );
    assert.deepEqual((await feed(key, '?after=10')).data, []);
  });

  it('a category deletion shows each post that lost the category, as it is now, before the deletion', async () => {
    const { key } = await tenant();
    const news = (
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key,
        headers: { 'idempotency-key': 'n' },
        body: { name: 'News' },
      })
    ).json();
    const tips = (
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key,
        headers: { 'idempotency-key': 't' },
        body: { name: 'Tips' },
      })
    ).json();
    const both = await createPost(suite.t, key, { category_ids: [news.id, tips.id], default_category_id: news.id });
    const other = await createPost(suite.t, key, { category_ids: [tips.id] });
    suite.t.clock.advance(1000);
    assert.equal(
      (await suite.t.request({ method: 'DELETE', url: `/v1/blog/categories/${news.id}`, key })).statusCode,
      204,
    );
    const page = await feed(key, '?after=4');
    assert.deepEqual(
      page.data.map((e) => [e.type, e.data.id]),
      [
        ['post.updated', both.id],
        ['category.deleted', news.id],
      ],
    );
    const now = (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${both.id}`, key })).json();
    assert.deepEqual(page.data[0].data, now);
    assert.deepEqual([now.category_ids, now.default_category_id], [[tips.id], null]);
    assert.ok(other.id);
  });

  it('filters by exact types and prefixes; the cursor of a filtered page moves past what it skipped', async () => {
    const { key } = await tenant();
    const category = (
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key,
        headers: { 'idempotency-key': 'c2' },
        body: { name: 'Tips' },
      })
    ).json();
    const post = await createPost(suite.t, key);
    await publish(suite.t, key, post.id);
    assert.equal(
      (await suite.t.request({ method: 'DELETE', url: `/v1/blog/categories/${category.id}`, key })).statusCode,
      204,
    );

    const posts = await feed(key, '?types=post.*');
    assert.deepEqual(
      posts.data.map((e) => e.type),
      ['post.created', 'post.published'],
    );
    assert.equal(posts.meta.next_cursor, '4');
    const mixed = await feed(key, `?types=${encodeURIComponent('category.deleted, post.created')}`);
    assert.deepEqual(
      mixed.data.map((e) => e.type),
      ['post.created', 'category.deleted'],
    );
    const onePage = await feed(key, '?types=post.*&limit=1');
    assert.deepEqual(
      [onePage.data.map((e) => e.sequence), onePage.meta],
      [[2], { next_cursor: '2', has_more: true, limit: 1 }],
    );
    assert.deepEqual(await feed(key, '?types=image.*'), {
      data: [],
      meta: { next_cursor: '4', has_more: false, limit: 100 },
    });
  });

  it('answers bad parameters, a cursor beyond the feed and a key without read_blog in the error envelope', async () => {
    const { key, store } = await tenant();
    await createPost(suite.t, key);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?after=abc', key }), 'validation_failed', [
      { field: 'after', issue: 'must be a next_cursor from this feed or an event sequence (a whole number)' },
    ]);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?after=-1', key }), 'validation_failed', [
      { field: 'after', issue: /whole number/ },
    ]);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?after=2', key }), 'validation_failed', [
      {
        field: 'after',
        issue: 'is beyond the newest event of this store (sequence 1); use a next_cursor from this feed',
      },
    ]);
    assertError(
      await suite.t.request({ method: 'GET', url: '/v1/events?types=post.*,post.removed,webhook.test,media.*', key }),
      'validation_failed',
      [
        {
          field: 'types[1]',
          issue:
            /^"post.removed" is not an event type; use post\.created\|updated\|.*, category\..*, image\..*, or post.\*, category.\*, image.\*$/,
        },
        { field: 'types[2]', issue: /^"webhook.test" is not an event type/ },
        { field: 'types[3]', issue: /^"media.\*" is not an event type/ },
      ],
    );
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?limit=0', key }), 'validation_failed', [
      { field: 'limit', issue: /.+/ },
    ]);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?limit=101', key }), 'validation_failed', [
      { field: 'limit', issue: /.+/ },
    ]);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?since=1', key }), 'validation_failed', [
      { field: 'since', issue: /.+/ },
    ]);
    const mediaOnly = await suite.t.issueKey(store, ['write_media']);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events', key: mediaOnly }), 'insufficient_scope', [
      { field: 'scope', issue: 'required: read_blog' },
    ]);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events' }), 'unauthorized');
    // read_blog alone is enough.
    const reader = await suite.t.issueKey(store, ['read_blog']);
    assert.equal((await feed(reader)).data.length, 1);
  });

  it('keeps events for the retention, then housekeeping drops the oldest and an older cursor answers 410', async () => {
    const { key } = await tenant();
    const start = suite.t.clock.now().getTime();
    await createPost(suite.t, key);
    await createPost(suite.t, key);
    suite.t.clock.set(start + 10 * DAY);
    await createPost(suite.t, key);
    // 30 days after the first two: they are past retention, the third is not.
    suite.t.clock.set(start + 30 * DAY + 1);
    let pass = await suite.t.ctx.housekeeping.runPass();
    assert.ok(pass.ran);
    assert.deepEqual(
      (await feed(key)).data.map((e) => e.sequence),
      [3],
    );
    assert.deepEqual(
      (await feed(key, '?after=2')).data.map((e) => e.sequence),
      [3],
    );
    const expired = assertError(
      await suite.t.request({ method: 'GET', url: '/v1/events?after=1', key }),
      'cursor_expired',
      [
        {
          field: 'after',
          issue:
            'events up to sequence 2 are past the 30-day retention; read the resources again, then follow from the next_cursor of GET /v1/events without after',
        },
      ],
    );
    assert.equal(expired.retryable, false);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?after=0', key }), 'cursor_expired', [
      { field: 'after', issue: /sequence 2/ },
    ]);
    // Every event gone: the counter still knows where the feed is.
    suite.t.clock.set(start + 41 * DAY);
    pass = await suite.t.ctx.housekeeping.runPass();
    assert.ok(pass.ran);
    assert.deepEqual(await feed(key), { data: [], meta: { next_cursor: '3', has_more: false, limit: 100 } });
    assert.deepEqual((await feed(key, '?after=3')).meta.next_cursor, '3');
    assertError(await suite.t.request({ method: 'GET', url: '/v1/events?after=2', key }), 'cursor_expired', [
      { field: 'after', issue: /sequence 3/ },
    ]);
    await createPost(suite.t, key);
    assert.deepEqual(
      (await feed(key, '?after=3')).data.map((e) => e.sequence),
      [4],
    );
  });

  it('numbers events in commit order: a transaction that commits late is seen after the cursor, never skipped', async () => {
    const { store, key } = await tenant();
    await createPost(suite.t, key);
    const first = await feed(key);
    assert.equal(first.meta.next_cursor, '1');
    if (suite.target.name === 'postgres') {
      // A write whose transaction starts first and commits last (a slow request of another
      // process): other writes commit meanwhile, and it gets the next number when it commits.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let recorded!: () => void;
      const inserted = new Promise<void>((resolve) => (recorded = resolve));
      const slow = suite.t.ctx.db.transaction().execute(async (trx) => {
        await recordEvent(trx, store, 'category.created', suite.t.clock.now().getTime(), () => ({ id: 999 }));
        recorded();
        await held;
      });
      await inserted;
      await createPost(suite.t, key);
      const during = await feed(key, '?after=1');
      assert.deepEqual(
        during.data.map((e) => [e.sequence, e.type]),
        [[2, 'post.created']],
      );
      assert.equal(during.meta.next_cursor, '2');
      release();
      await slow;
      const afterCommit = await feed(key, `?after=${during.meta.next_cursor}`);
      assert.deepEqual(
        afterCommit.data.map((e) => [e.sequence, e.type]),
        [[3, 'category.created']],
      );
    } else {
      // SQLite: another process's write transaction, open on its own connection, is not seen
      // (not even its number) until it commits.
      const config = suite.t.config.database as { file: string };
      const other = new Sqlite(config.file);
      try {
        other.exec('BEGIN IMMEDIATE');
        // The event's insert as the service writes it (event-outbox.ts).
        other
          .prepare(
            "INSERT INTO webhook_events (id, store_id, type, body, created_at, sequence) VALUES ('msg_slow', ?, 'category.created', ?, ?, COALESCE((SELECT last_sequence FROM event_sequences WHERE store_id = ?), 0) + 1)",
          )
          .run(
            store.id,
            '{"type":"category.created","timestamp":"2026-09-15T10:00:00+08:00","data":{"id":999}}',
            suite.t.clock.now().getTime(),
            store.id,
          );
        assert.deepEqual(await feed(key, '?after=1'), {
          data: [],
          meta: { next_cursor: '1', has_more: false, limit: 100 },
        });
        other.exec('COMMIT');
      } finally {
        other.close();
      }
      assert.deepEqual(
        (await feed(key, '?after=1')).data.map((e) => [e.sequence, e.type, e.id]),
        [[2, 'category.created', 'msg_slow']],
      );
    }
  });
});
