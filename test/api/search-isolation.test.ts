// A store's search reads only its own posts' index entries: the word another store holds (the
// timing oracle's input) finds nothing and, on SQLite, touches no index entry of that store; a
// store's search answers the same whatever other stores hold.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createPost } from '../helpers/posts.js';
import { storeTermTokens } from '../../src/lib/search-text.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('search per store', { tenant: false }, (suite) => {
  it('finds only the store’s own posts, and on SQLite looks up only the store’s own index entries', async () => {
    const a = await suite.t.tenant();
    const b = await suite.t.tenant();
    // A holds many large posts with a word only it has.
    const big = `<p>${Array.from({ length: 400 }, (_, i) => `onlyinstorea${i} marmalade`).join(' ')}</p>`;
    for (let i = 0; i < 20; i++) await createPost(suite.t, a.key, { title: `A ${i} onlyinstorea`, body_html: big }, `iso-a-${i}`);
    const mine = await createPost(suite.t, b.key, { title: 'B marmalade', body_html: '<p>b</p>' }, 'iso-b');
    const search = async (key: string, q: string) => {
      const res = await suite.t.request({ method: 'GET', url: `/v1/blog/posts?q=${encodeURIComponent(q)}`, key });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((p: { id: number }) => p.id);
    };
    assert.deepEqual(await search(b.key, 'onlyinstorea'), []);
    assert.deepEqual(await search(b.key, 'marmalade'), [mine.id]);
    assert.equal((await search(a.key, 'onlyinstorea')).length, 20);
    if (suite.target.name === 'sqlite') {
      const entries = async (storeId: number, term: string) => {
        const match = storeTermTokens(storeId, term).join(' AND ');
        const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM post_search_store WHERE post_search_store MATCH ${match}`.execute(suite.t.ctx.db);
        return Number(rows[0].n);
      };
      assert.equal(await entries(b.store.id, 'onlyinstorea'), 0, 'B’s lookup of A’s word reads no entry');
      assert.equal(await entries(b.store.id, 'marmalade'), 1, 'B’s lookup of a shared word reads B’s one post');
      assert.equal(await entries(a.store.id, 'marmalade'), 20);
    }
  });

  it('drops a post’s entries when it is edited and deleted', async () => {
    const a = await suite.t.tenant();
    const post = await createPost(suite.t, a.key, { title: 'quince jelly', body_html: '<p>x</p>' }, 'iso-edit');
    const search = async (q: string) => (await suite.t.request({ method: 'GET', url: `/v1/blog/posts?q=${q}`, key: a.key })).json().data.length;
    assert.equal(await search('quince'), 1);
    await suite.t.request({ method: 'PATCH', url: `/v1/blog/posts/${post.id}`, key: a.key, body: { title: 'plum jam' } });
    assert.deepEqual([await search('quince'), await search('plum')], [0, 1]);
    const first = await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${post.id}`, key: a.key });
    const token = first.json().error.details.find((d: { field: string }) => d.field === 'confirmation_token').issue;
    assert.equal((await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${post.id}`, key: a.key, body: { confirmation_token: token } })).statusCode, 204);
    assert.equal(await search('plum'), 0);
  });
});
