// The events feed followed across real server processes: three on one PostgreSQL database (as
// behind a load balancer), and the single SQLite process. Writers on every process create,
// update, publish, unpublish and delete posts and categories concurrently while a consumer
// follows GET /v1/events through every process, pages of random sizes, the whole time. At the
// end the consumer holds every event of every acknowledged write exactly once, in each
// resource's order, deletions included, and nothing else.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { send } from '../helpers/fetch-response.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

interface FeedEvent {
  id: string;
  sequence: number;
  type: string;
  data: { id: number };
}

const WRITERS = 6;
const POSTS_PER_WRITER = 6;

describeEachEngine('events feed followed across server processes under concurrent writes', (target) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target);
  });
  after(() => t?.close());

  it('the consumer gets every event of every acknowledged write exactly once, in per-resource order', async () => {
    const servers: ServerProcess[] = [];
    try {
      const count = target.name === 'postgres' ? 3 : 1;
      // The SQLite server shares the database file; this process's own context stays idle.
      for (let i = 0; i < count; i++) servers.push(await startServerProcess({ DATABASE_URL: t.config.database.url }));
      const store = await t.createStore({ categories: true });
      const key = await t.issueKey(store, ['write_blog', 'publish_blog'], {
        writePerMinute: 100_000,
        readPerMinute: 100_000,
        concurrency: 200,
      });
      let turn = 0;
      const base = () => servers[turn++ % servers.length].baseUrl;
      const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await send(base(), method, path, { key, body, headers });
        return { status: res.statusCode, body: res.body ? res.json() : undefined };
      };

      // What each acknowledged write must show in the feed, per resource, in order.
      const expected = new Map<string, string[]>();
      const acknowledged = (resource: string, type: string) =>
        expected.set(resource, [...(expected.get(resource) ?? []), type]);
      const ok = (res: { status: number; body: unknown }, status: number) =>
        assert.equal(res.status, status, JSON.stringify(res.body));

      const writer = async (w: number) => {
        const category = await call(
          'POST',
          '/v1/blog/categories',
          { name: `Writer ${w}` },
          { 'idempotency-key': `cat-${w}` },
        );
        ok(category, 201);
        acknowledged(`category:${category.body.id}`, 'category.created');
        for (let i = 0; i < POSTS_PER_WRITER; i++) {
          const post = await call(
            'POST',
            '/v1/blog/posts',
            { title: `W${w} P${i}`, body_html: `<p>${w}-${i}</p>` },
            { 'idempotency-key': `post-${w}-${i}` },
          );
          ok(post, 201);
          const resource = `post:${post.body.id}`;
          acknowledged(resource, 'post.created');
          ok(await call('PATCH', `/v1/blog/posts/${post.body.id}`, { title: `W${w} P${i} again` }), 200);
          acknowledged(resource, 'post.updated');
          ok(await call('POST', `/v1/blog/posts/${post.body.id}/publish`, {}), 200);
          acknowledged(resource, 'post.published');
          if (i % 2 === 0) {
            ok(await call('POST', `/v1/blog/posts/${post.body.id}/unpublish`), 200);
            acknowledged(resource, 'post.unpublished');
            const first = await call('DELETE', `/v1/blog/posts/${post.body.id}`);
            ok(first, 409);
            ok(
              await call('DELETE', `/v1/blog/posts/${post.body.id}`, {
                confirmation_token: first.body.error.details[0].issue,
              }),
              204,
            );
            acknowledged(resource, 'post.deleted');
          }
        }
        ok(await call('PATCH', `/v1/blog/categories/${category.body.id}`, { name: `Writer ${w} renamed` }), 200);
        acknowledged(`category:${category.body.id}`, 'category.updated');
        ok(await call('DELETE', `/v1/blog/categories/${category.body.id}`), 204);
        acknowledged(`category:${category.body.id}`, 'category.deleted');
      };

      const received: FeedEvent[] = [];
      let cursor: string | null = null;
      const poll = async () => {
        const limit = 1 + Math.floor(Math.random() * 20);
        const res = await call('GET', `/v1/events?limit=${limit}${cursor === null ? '' : `&after=${cursor}`}`);
        ok(res, 200);
        received.push(...res.body.data);
        cursor = res.body.meta.next_cursor;
        return res.body.meta.has_more as boolean;
      };
      let writing = true;
      const consumer = (async () => {
        let polls = 0;
        while (writing) {
          await poll();
          polls++;
        }
        return polls;
      })();
      try {
        await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      } finally {
        writing = false;
      }
      const polls = await consumer;
      // Every write has been answered: the rest of the feed is there to read.
      while (await poll());

      assert.ok(polls > 10, `the consumer read while the writers wrote (${polls} polls)`);
      const ids = received.map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length, 'no event twice');
      const sequences = received.map((e) => e.sequence);
      assert.deepEqual(
        sequences,
        [...sequences].sort((a, b) => a - b),
        'in sequence order',
      );
      const total = [...expected.values()].reduce((n, types) => n + types.length, 0);
      assert.equal(received.length, total, 'every event of every acknowledged write, and nothing else');
      const seen = new Map<string, string[]>();
      for (const e of received) {
        const resource = `${e.type.slice(0, e.type.indexOf('.'))}:${e.data.id}`;
        seen.set(resource, [...(seen.get(resource) ?? []), e.type]);
      }
      assert.deepEqual(seen, expected, 'each resource’s events in the order its writes were acknowledged');
      // Reading the whole feed afresh gives the same events.
      const whole: FeedEvent[] = [];
      let after: string | null = null;
      for (;;) {
        const res = await call('GET', `/v1/events?limit=100${after === null ? '' : `&after=${after}`}`);
        whole.push(...res.body.data);
        after = res.body.meta.next_cursor;
        if (!res.body.meta.has_more) break;
      }
      assert.deepEqual(
        whole.map((e) => e.id),
        ids,
      );
    } finally {
      for (const s of servers) await s.stop();
    }
  });
});
