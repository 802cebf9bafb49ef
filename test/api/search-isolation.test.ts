// A store's search reads only its own posts' index entries: the word another store holds (the
// timing oracle's input) finds nothing and touches no index entry of that store (SQLite: the
// entries its lookup reads; PostgreSQL: the buffers the search query reads, equal for a word
// only another store holds and a word no post holds, through the store-keyed index); a store's
// search answers the same whatever other stores hold.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql } from 'kysely';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createPost } from '../helpers/posts.js';
import { storeTermTokens } from '../../src/lib/search-text.js';
import { matchesTerms } from '../../src/modules/posts/post-search.js';

describeEachEngine('search per store', (target) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target);
  });
  after(() => t?.close());

  it('finds only the store’s own posts, and on SQLite looks up only the store’s own index entries', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    // A holds many large posts with a word only it has.
    const big = `<p>${Array.from({ length: 400 }, (_, i) => `onlyinstorea${i} marmalade`).join(' ')}</p>`;
    for (let i = 0; i < 20; i++)
      await createPost(t, a.key, { title: `A ${i} onlyinstorea`, body_html: big }, `iso-a-${i}`);
    const mine = await createPost(t, b.key, { title: 'B marmalade', body_html: '<p>b</p>' }, 'iso-b');
    const search = async (key: string, q: string) => {
      const res = await t.request({ method: 'GET', url: `/v1/blog/posts?q=${encodeURIComponent(q)}`, key });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((p: { id: number }) => p.id);
    };
    assert.deepEqual(await search(b.key, 'onlyinstorea'), []);
    assert.deepEqual(await search(b.key, 'marmalade'), [mine.id]);
    assert.equal((await search(a.key, 'onlyinstorea')).length, 20);
    if (target.name === 'sqlite') {
      const entries = async (storeId: number, term: string) => {
        const match = storeTermTokens(storeId, term).join(' AND ');
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*) AS n FROM post_search_store WHERE post_search_store MATCH ${match}`.execute(t.ctx.db);
        return Number(rows[0].n);
      };
      assert.equal(await entries(b.store.id, 'onlyinstorea'), 0, 'B’s lookup of A’s word reads no entry');
      assert.equal(await entries(b.store.id, 'marmalade'), 1, 'B’s lookup of a shared word reads B’s one post');
      assert.equal(await entries(a.store.id, 'marmalade'), 20);
    }
  });

  // PostgreSQL's index and plan only: defined on that engine, not skipped on the other.
  if (target.name === 'postgres')
    it('on PostgreSQL, reads as many buffers for a word only another store holds as for a word no post holds, through the store-keyed index', async () => {
      const a = await t.tenant();
      const b = await t.tenant();
      // Enough posts in each store that the planner looks a rare word up in the index rather than
      // checking the store's posts one by one; A's hold the word B searches for.
      const bulk = async (storeId: number, count: number, text: (n: number) => string) => {
        const { rows } = await sql<{ id: number }>`
        INSERT INTO posts (store_id, title, summary, body_html, warnings, cover_image_id, default_category_id, published_at, view_count, created_at, updated_at)
        SELECT ${storeId}, 'p' || g, NULL, '<p>x</p>', '[]', NULL, NULL, g, 0, g, g FROM generate_series(1, ${count}) AS g RETURNING id`.execute(
          t.ctx.db,
        );
        await t.ctx.db
          .insertInto('post_search')
          .values(rows.map((r, n) => ({ post_id: r.id, store_id: storeId, text: text(n) })))
          .execute();
      };
      await bulk(a.store.id, 2000, (n) => `onlyinstorea${n % 7} onlyinstorea marmalade word${n}`);
      await bulk(b.store.id, 2000, (n) => `plain${n} marmalade`);
      await sql`ANALYZE post_search`.execute(t.ctx.db);
      await sql`ANALYZE posts`.execute(t.ctx.db);
      const explain = async (term: string) => {
        const query = t.ctx.db
          .selectFrom('posts')
          .select('posts.id')
          .where('posts.store_id', '=', b.store.id)
          .where((eb) => matchesTerms(eb, [term], true, b.store.id))
          .orderBy(sql`COALESCE(posts.published_at, -1)`, 'desc')
          .orderBy('posts.id', 'desc')
          .limit(21)
          .compile();
        const { rows } = await t.ctx.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query.sql}`, [...query.parameters]),
        );
        const plan = rows[0]['QUERY PLAN'][0].Plan;
        return {
          buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'],
          indexes: indexNames(plan),
          rows: plan['Actual Rows'],
        };
      };
      const others = await explain('onlyinstorea');
      const nobodys = await explain('zzqqxxnobody');
      assert.deepEqual([others.rows, nobodys.rows], [0, 0]);
      assert.ok(
        others.indexes.includes('post_search_store_keys'),
        `the plan uses the store-keyed index: ${others.indexes.join(', ')}`,
      );
      assert.ok(
        !others.indexes.includes('post_search_text_trgm'),
        'the plan does not use the index of every store’s text',
      );
      // Migration 0015 dropped that index: nothing read it, and every create wrote it.
      const { rows: trigramIndexes } = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'post_search_text_trgm'`.execute(t.ctx.db);
      assert.equal(trigramIndexes[0].n, 0);
      assert.equal(others.buffers, nobodys.buffers, 'A’s posts add no buffer to B’s search');
      // The same lookup of A's own word reads A's entries (the index does find them).
      const own = await t.ctx.db
        .selectFrom('post_search')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(sql<boolean>`keys @> post_search_keys(${a.store.id}::bigint, 'onlyinstorea')`)
        .executeTakeFirstOrThrow();
      assert.equal(Number(own.n), 2000);
    });

  // PostgreSQL's index and plan only: defined on that engine, not skipped on the other.
  if (target.name === 'postgres')
    it('on PostgreSQL, finds a post whose search text was written without its store, as the release before keys does', async () => {
      const a = await t.tenant();
      const post = await createPost(t, a.key, { title: 'greengage', body_html: '<p>x</p>' }, 'iso-previous');
      // The previous release writes (post_id, text) only, in the create's own statement.
      await t.ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('post_search').where('post_id', '=', post.id).execute();
        await trx.insertInto('post_search').values({ post_id: post.id, text: 'greengage preserve' }).execute();
      });
      const res = await t.request({ method: 'GET', url: '/v1/blog/posts?q=preserve', key: a.key });
      assert.deepEqual(
        res.json().data.map((p: { id: number }) => p.id),
        [post.id],
      );
    });

  it('drops a post’s entries when it is edited and deleted', async () => {
    const a = await t.tenant();
    const post = await createPost(t, a.key, { title: 'quince jelly', body_html: '<p>x</p>' }, 'iso-edit');
    const search = async (q: string) =>
      (await t.request({ method: 'GET', url: `/v1/blog/posts?q=${q}`, key: a.key })).json().data.length;
    assert.equal(await search('quince'), 1);
    await t.request({ method: 'PATCH', url: `/v1/blog/posts/${post.id}`, key: a.key, body: { title: 'plum jam' } });
    assert.deepEqual([await search('quince'), await search('plum')], [0, 1]);
    const first = await t.request({ method: 'DELETE', url: `/v1/blog/posts/${post.id}`, key: a.key });
    const token = first.json().error.details.find((d: { field: string }) => d.field === 'confirmation_token').issue;
    assert.equal(
      (
        await t.request({
          method: 'DELETE',
          url: `/v1/blog/posts/${post.id}`,
          key: a.key,
          body: { confirmation_token: token },
        })
      ).statusCode,
      204,
    );
    assert.equal(await search('plum'), 0);
  });
});

interface PlanNode {
  'Index Name'?: string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

function indexNames(plan: PlanNode): string[] {
  return [...(plan['Index Name'] ? [plan['Index Name']] : []), ...(plan.Plans ?? []).flatMap(indexNames)];
}
