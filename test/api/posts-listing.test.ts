import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { START_TIME } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('GET /v1/blog/posts', (suite) => {
  const ids: number[] = [];
  let categoryId: number;
  before(async () => {
    categoryId = (
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key: suite.key,
        headers: { 'idempotency-key': 'c1' },
        body: { name: 'News' },
      })
    ).json().id;
    for (let i = 0; i < 45; i++) {
      // Two posts share each creation second: ordering falls back to id.
      if (i % 2 === 0) suite.t.clock.advance(1000);
      const post = await createPost(suite.t, suite.key, i % 3 === 0 ? { category_ids: [categoryId] } : {});
      ids.push(post.id);
    }
    await publish(suite.t, suite.key, ids[0]);
    await publish(suite.t, suite.key, ids[1], '2026-09-01T00:00:00+08:00');
    await publish(suite.t, suite.key, ids[2], '2027-01-01T00:00:00+08:00');
    const other = await suite.t.tenant();
    await createPost(suite.t, other.key); // another store's post never shows
  });

  const list = (query = '') => suite.t.request({ method: 'GET', url: `/v1/blog/posts${query}`, key: suite.key });
  const walk = async (query: string) => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`${query}${query ? '&' : '?'}${cursor ? `cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      seen.push(...body.data.map((p: any) => p.id));
      cursor = body.meta.next_cursor;
      pages++;
    } while (cursor);
    return { seen, pages };
  };

  it('pages newest first through more than two pages with default limit 20', async () => {
    const first = (await list()).json();
    assert.equal(first.meta.limit, 20);
    assert.equal(first.data.length, 20);
    const { seen, pages } = await walk('');
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse());
  });

  it('omits body_html and warnings from list items', async () => {
    const item = (await list('?limit=1')).json().data[0];
    assert.deepEqual(Object.keys(item).sort(), [
      'category_ids',
      'cover_image',
      'created_at',
      'default_category_id',
      'id',
      'public_url',
      'published_at',
      'status',
      'summary',
      'title',
      'updated_at',
      'view_count',
    ]);
  });

  it('filters by status, with the derived status', async () => {
    assert.deepEqual((await walk('?status=published&limit=1')).seen, [ids[0], ids[1]].reverse());
    assert.deepEqual((await walk('?status=scheduled')).seen, [ids[2]]);
    assert.equal((await walk('?status=draft&limit=50')).seen.length, 42);
    suite.t.clock.set('2027-01-01T00:00:00+08:00');
    assert.deepEqual(
      (await walk('?status=published')).seen,
      [ids[0], ids[1], ids[2]].sort((a, b) => b - a),
    );
    suite.t.clock.set(START_TIME);
    suite.t.clock.advance(30_000);
  });

  it('filters by category_id (posts carrying that id)', async () => {
    const expected = ids.filter((_, i) => i % 3 === 0).reverse();
    assert.deepEqual((await walk('?category_id=' + categoryId + '&limit=7')).seen, expected);
  });

  it('answers 404 feature_unavailable for category_id when categories are off', async () => {
    const off = await suite.t.tenant({ categories: false });
    assertError(
      await suite.t.request({ method: 'GET', url: '/v1/blog/posts?category_id=1', key: off.key }),
      'feature_unavailable',
      [{ field: 'category_id', issue: 'categories are not enabled for this store' }],
    );
  });

  it('validates limit and status, refuses forged cursors, restarts when conditions change', async () => {
    assertError(await list('?limit=0'), 'validation_failed', [{ field: 'limit', issue: 'must be >= 1' }]);
    assertError(await list('?limit=51'), 'validation_failed', [{ field: 'limit', issue: 'must be <= 50' }]);
    assertError(await list('?status=archived'), 'validation_failed', [
      { field: 'status', issue: 'must be equal to one of the allowed values' },
    ]);
    assert.equal((await list('?limit=50')).json().data.length, 45);
    const cursor = (await list('?limit=5')).json().meta.next_cursor as string;
    assertError(await list(`?cursor=${encodeURIComponent(cursor + 'x')}`), 'validation_failed', [
      { field: 'cursor', issue: /not issued to this caller/ },
    ]);
    const restarted = (await list(`?limit=5&status=draft&cursor=${encodeURIComponent(cursor)}`)).json();
    assert.equal(restarted.data[0].id, ids[44], 'changed conditions restart at the first page');
    const continued = (await list(`?limit=5&cursor=${encodeURIComponent(cursor)}`)).json();
    assert.equal(continued.data[0].id, ids[39]);
  });
});
