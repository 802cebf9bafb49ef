// PostgreSQL: a create takes its store's quota row (locked until the commit, so a store's
// creates take it one at a time) after every other write of its statement, so creates of one
// store wait for each other only from the quota to the commit, not for each other's whole
// statement (src/modules/posts/create-statement.ts; docs/performance.md).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeOnPostgres } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createPost } from '../helpers/posts.js';

describeOnPostgres('the order of a create’s writes', (target) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target);
  });
  after(() => t?.close());

  it('a create waiting for its store’s quota row has already made its other writes (its idempotent response is written and locked)', async () => {
    const { store, key } = await t.tenant();
    await createPost(t, key, {}, 'first-of-the-day'); // the day's quota row exists from here on
    const idemKey = 'waits-for-the-quota';
    let answer: Promise<{ statusCode: number; body: string }> | undefined;
    await t.ctx.db.transaction().execute(async (holder) => {
      await sql`SELECT 1 FROM daily_usage WHERE store_id = ${store.id} FOR UPDATE`.execute(holder);
      answer = t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key,
        headers: { 'idempotency-key': idemKey },
        body: { title: 'Queued behind the quota', body_html: '<p>Queued</p>' },
      });
      // The create's statement is running and waits for a row lock (the quota's, held here).
      for (let attempt = 0; ; attempt++) {
        const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND query LIKE '%WITH post AS%'`.execute(t.ctx.db);
        if (rows[0].n === 1) break;
        assert.ok(attempt < 500, 'the create never waited for the quota row');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Its statement has already updated the idempotency record with the response (the last of
      // its other writes): the row is locked by it, so this cannot take it without waiting.
      await assert.rejects(
        sql`SELECT 1 FROM idempotency_records WHERE store_id = ${store.id} AND idem_key = ${idemKey} FOR UPDATE NOWAIT`.execute(
          t.ctx.db,
        ),
        (err: { code?: string }) => err.code === '55P03',
      );
    });
    const res = await answer!;
    assert.equal(res.statusCode, 201, res.body);
    const { rows } = await sql<{
      used: number;
    }>`SELECT used FROM daily_usage WHERE store_id = ${store.id} AND kind = 'posts'`.execute(t.ctx.db);
    assert.deepEqual(
      rows.map((r) => Number(r.used)),
      [2],
    );
  });
});
