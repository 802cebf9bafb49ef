// Races across real server processes sharing one PostgreSQL database, as behind a load balancer:
// identical creates with one Idempotency-Key, duplicates with different keys, and the quota.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeOnPostgres } from '../helpers/engines.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describeOnPostgres('races across three server processes on one PostgreSQL', (postgres) => {
  let t: TestApp;
  const servers: ServerProcess[] = [];
  before(async () => {
    t = await startTestApp(postgres);
    for (let i = 0; i < 3; i++) servers.push(await startServerProcess({ DATABASE_URL: t.config.database.url }));
  });
  after(async () => {
    for (const s of servers) await s.stop();
    await t?.close();
  });

  const create = (i: number, key: string, idem: string, body: unknown) =>
    fetch(`${servers[i % servers.length].baseUrl}/v1/blog/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': idem, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const postCount = async (storeId: number) =>
    (await t.ctx.db.selectFrom('posts').select('id').where('store_id', '=', storeId).execute()).length;

  it('N identical creates with one Idempotency-Key make exactly one post', async () => {
    const store = await t.createStore();
    const key = await t.issueKey(store, undefined, { writePerMinute: 1000, concurrency: 100 });
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => create(i, key, 'same-key', { title: 'One', body_html: '<p>one</p>' })),
    );
    const created = results.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    assert.equal(new Set(created.map((r) => r.body.id)).size, 1);
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 409);
      assert.equal(r.body.error.code, 'idempotency_in_progress');
    }
    assert.equal(await postCount(store.id), 1);
  });

  it('duplicate content with different keys makes exactly one post', async () => {
    const store = await t.createStore();
    const key = await t.issueKey(store, undefined, { writePerMinute: 1000, concurrency: 100 });
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => create(i, key, `k-${i}`, { title: 'Twin', body_html: '<p>twin</p>' })),
    );
    const created = results.filter((r) => r.status === 201);
    assert.equal(created.length, 1, JSON.stringify(results.map((r) => r.status)));
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.body.error.code, 'duplicate_content');
      assert.deepEqual(r.body.error.details, [{ field: 'post_id', issue: String(created[0].body.id) }]);
    }
    assert.equal(await postCount(store.id), 1);
  });

  it('the daily quota holds exactly', async () => {
    const store = await t.createStore({ changes: { posts_per_day: 4 } });
    const key = await t.issueKey(store, undefined, { writePerMinute: 1000, concurrency: 100 });
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => create(i, key, `q-${i}`, { title: `Q${i}`, body_html: `<p>${i}</p>` })),
    );
    assert.equal(results.filter((r) => r.status === 201).length, 4, JSON.stringify(results.map((r) => r.status)));
    assert.ok(
      results.filter((r) => r.status !== 201).every((r) => r.status === 429 && r.body.error.code === 'quota_exceeded'),
    );
    assert.equal(await postCount(store.id), 4);
  });
});
