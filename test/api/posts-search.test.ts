// GET /v1/blog/posts: q (search), order_by, direction and updated_since, on both engines.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('GET /v1/blog/posts search and order', (suite) => {
  let otherKey: string;
  const post: Record<string, number> = {};
  before(async () => {
    ({ key: otherKey } = await suite.t.tenant());
    const add = async (name: string, body: Record<string, unknown>) => {
      suite.t.clock.advance(1000);
      post[name] = (await createPost(suite.t, suite.key, body)).id;
    };
    await add('cakeEn', {
      title: 'Chocolate Cake for Beginners',
      body_html: '<p>Melt the <strong>butter</strong> first.</p>',
    });
    await add('cakeZh', {
      title: '巧克力蛋糕食譜',
      body_html: '<p>先把奶油融化，再加入可可粉。</p>',
      summary: '簡單的甜點',
    });
    await add('breadZh', { title: '全麥麵包', body_html: '<p>蛋糕以外的烘焙：麵包需要發酵。</p>' });
    await add('link', {
      title: 'Links only',
      body_html: '<p>See <a href="https://cake.example/recipe">our shop</a> &amp; more</p>',
    });
    await add('summary', { title: 'Plain title', body_html: '<p>Nothing here</p>', summary: 'A BUTTERY summary' });
    await add('inline', { title: 'Inline markup', body_html: '<p>Fluffy waf<em>fle</em>s</p><p>end</p><p>start</p>' });
    await add('percent', { title: 'Discount 100% off', body_html: '<p>Sale: 1000 items, under_score "quoted"</p>' });
    // Another store's post with the same words never shows.
    await createPost(suite.t, otherKey, { title: 'Chocolate Cake elsewhere', body_html: '<p>蛋糕 butter</p>' });
  });

  const list = (query: string, k = suite.key) =>
    suite.t.request({ method: 'GET', url: `/v1/blog/posts?${query}`, key: k });
  const ids = async (query: string) => {
    const res = await list(query);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.map((p: { id: number }) => p.id);
  };
  const q = (text: string, more = '') => ids(`q=${encodeURIComponent(text)}${more}`);

  it('finds English words case-insensitively in title, summary and body text, newest first', async () => {
    assert.deepEqual(await q('chocolate'), [post.cakeEn]);
    assert.deepEqual(await q('CAKE'), [post.cakeEn]);
    assert.deepEqual(await q('butter'), [post.summary, post.cakeEn]);
    assert.deepEqual(await q('Butter beginners'), [post.cakeEn], 'every term must be contained');
    assert.deepEqual(await q('butter  missing'), []);
    assert.deepEqual(await q('our shop'), [post.link]);
    assert.deepEqual(await q('& more'), [post.link], 'entities are searched as the text they stand for');
    assert.deepEqual(await q('waffles'), [post.inline], 'inline tags do not split a word');
    assert.deepEqual(await q('endstart'), [], 'blocks do not run together');
  });

  it('does not match markup: tag names and attribute values', async () => {
    assert.deepEqual(await q('cake.example'), []);
    assert.deepEqual(await q('href'), []);
    assert.deepEqual(await q('strong'), []);
  });

  it('finds Traditional Chinese without spaces, two characters or more', async () => {
    assert.deepEqual(await q('蛋糕'), [post.breadZh, post.cakeZh]);
    assert.deepEqual(await q('巧克力蛋糕'), [post.cakeZh]);
    assert.deepEqual(await q('奶油融化'), [post.cakeZh]);
    assert.deepEqual(await q('甜點'), [post.cakeZh], 'summary');
    assert.deepEqual(await q('蛋糕 發酵'), [post.breadZh]);
    assert.deepEqual(await q('麵包 蛋糕 烘焙'), [post.breadZh]);
    assert.deepEqual(await q('蛋'), [post.breadZh, post.cakeZh], 'a single character still matches as a substring');
    assert.deepEqual(await q('蛋糕 chocolate'), []);
  });

  it('treats wildcard and query-syntax characters literally', async () => {
    assert.deepEqual(await q('100%'), [post.percent]);
    assert.deepEqual(await q('%'), [post.percent]);
    assert.deepEqual(await q('under_score'), [post.percent]);
    assert.deepEqual(await q('1_0'), [], '_ is not a wildcard');
    assert.deepEqual(await q('1%0'), [], '% is not a wildcard');
    assert.deepEqual(await q('"quoted"'), [post.percent]);
    assert.deepEqual(await q('"quoted'), [post.percent]);
    assert.deepEqual(await q('AND'), [], 'FTS operators are plain words');
    assert.deepEqual(await q('*'), []);
    assert.deepEqual(await q('NEAR(a b)'), []);
  });

  it('follows edits and deletions', async () => {
    const created = await createPost(suite.t, suite.key, { title: 'Temporary lemon tart', body_html: '<p>檸檬塔</p>' });
    assert.deepEqual(await q('lemon'), [created.id]);
    assert.deepEqual(await q('檸檬'), [created.id]);
    let res = await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${created.id}`,
      key: suite.key,
      body: { title: 'Orange tart', body_html: '<p>柳橙塔</p>' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await q('lemon'), []);
    assert.deepEqual(await q('檸檬'), []);
    assert.deepEqual(await q('柳橙'), [created.id]);
    res = await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${created.id}`,
      key: suite.key,
      body: { summary: 'with pistachio' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await q('pistachio orange'), [created.id]);
    const token = (
      await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${created.id}`, key: suite.key })
    ).json().error.details[0].issue;
    res = await suite.t.request({
      method: 'DELETE',
      url: `/v1/blog/posts/${created.id}`,
      key: suite.key,
      body: { confirmation_token: token },
    });
    assert.equal(res.statusCode, 204, res.body);
    assert.deepEqual(await q('orange'), []);
  });

  it('pages a search with cursors that carry q; another q restarts', async () => {
    const first = (await list('q=e&limit=2')).json();
    assert.equal(first.data.length, 2);
    const all = await ids('q=e&limit=50');
    assert.ok(all.length > 3);
    const walked: number[] = [...first.data.map((p: { id: number }) => p.id)];
    let cursor = first.meta.next_cursor;
    while (cursor) {
      const page = (await list(`q=e&limit=2&cursor=${encodeURIComponent(cursor)}`)).json();
      walked.push(...page.data.map((p: { id: number }) => p.id));
      cursor = page.meta.next_cursor;
    }
    assert.deepEqual(walked, all);
    const restarted = (await list(`q=cake&limit=2&cursor=${encodeURIComponent(first.meta.next_cursor)}`)).json();
    assert.deepEqual(
      restarted.data.map((p: { id: number }) => p.id),
      [post.cakeEn],
    );
  });

  it('refuses bad values with 422 naming the parameter', async () => {
    assertError(await list('q='), 'validation_failed', [
      { field: 'q', issue: 'must NOT have fewer than 1 characters' },
    ]);
    assertError(await list(`q=${'字'.repeat(201)}`), 'validation_failed', [
      { field: 'q', issue: 'must NOT have more than 200 characters' },
    ]);
    assert.equal((await list(`q=${encodeURIComponent('字'.repeat(200))}`)).statusCode, 200);
    assertError(await list('q=%20%20'), 'validation_failed', [{ field: 'q', issue: 'must contain at least one word' }]);
    assertError(await list('order_by=title'), 'validation_failed', [
      { field: 'order_by', issue: 'must be equal to one of the allowed values' },
    ]);
    assertError(await list('direction=up'), 'validation_failed', [
      { field: 'direction', issue: 'must be equal to one of the allowed values' },
    ]);
    assertError(await list('updated_since=2026-09-15T10:00:00'), 'validation_failed', [
      { field: 'updated_since', issue: /offset/ },
    ]);
    assertError(await list('updated_since=yesterday'), 'validation_failed', [
      { field: 'updated_since', issue: /offset/ },
    ]);
  });
});

describeTenantApp('GET /v1/blog/posts order_by and the sync feed', (suite) => {
  const ids: number[] = [];
  before(async () => {
    for (let i = 0; i < 9; i++) {
      // Three posts per creation second: ties fall back to id.
      if (i % 3 === 0) suite.t.clock.advance(1000);
      ids.push((await createPost(suite.t, suite.key)).id);
    }
  });

  const page = async (query: string) => {
    const res = await suite.t.request({ method: 'GET', url: `/v1/blog/posts?${query}`, key: suite.key });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { data: Array<{ id: number; updated_at: string }>; meta: { next_cursor: string | null } };
  };
  const walk = async (query: string, between?: (pageIndex: number) => Promise<void>) => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const body = await page(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...body.data.map((p) => p.id));
      cursor = body.meta.next_cursor;
      if (cursor && between) await between(n);
      n++;
    } while (cursor);
    return seen;
  };
  const edit = async (id: number, title: string) => {
    const res = await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${id}`,
      key: suite.key,
      body: { title },
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  it('orders by created_at both ways (the default stays newest first)', async () => {
    assert.deepEqual(await walk('limit=4'), [...ids].reverse());
    assert.deepEqual(await walk('limit=4&order_by=created_at&direction=desc'), [...ids].reverse());
    assert.deepEqual(await walk('limit=4&direction=asc'), ids);
  });

  it('orders by published_at with drafts last in both directions', async () => {
    suite.t.clock.advance(1000);
    assert.equal((await publish(suite.t, suite.key, ids[4], '2026-09-01T00:00:00+08:00')).statusCode, 200);
    assert.equal((await publish(suite.t, suite.key, ids[1], '2026-09-02T00:00:00+08:00')).statusCode, 200);
    assert.equal((await publish(suite.t, suite.key, ids[7], '2026-09-01T00:00:00+08:00')).statusCode, 200);
    assert.equal((await publish(suite.t, suite.key, ids[2], '2027-01-01T00:00:00+08:00')).statusCode, 200);
    const drafts = ids.filter((id) => ![1, 2, 4, 7].some((i) => ids[i] === id));
    assert.deepEqual(await walk('order_by=published_at&limit=2'), [
      ids[2],
      ids[1],
      ids[7],
      ids[4],
      ...[...drafts].reverse(),
    ]);
    assert.deepEqual(await walk('order_by=published_at&direction=asc&limit=3'), [
      ids[4],
      ids[7],
      ids[1],
      ids[2],
      ...drafts,
    ]);
    assert.deepEqual(await walk('order_by=published_at&status=published&limit=1'), [ids[1], ids[7], ids[4]]);
  });

  it('orders by updated_at and filters by updated_since (at or after)', async () => {
    suite.t.clock.advance(5000);
    await edit(ids[0], 'first edited');
    const since = new Date(suite.t.clock.now().getTime()).toISOString().replace('Z', '+00:00');
    suite.t.clock.advance(1000);
    await edit(ids[5], 'second edited');
    assert.deepEqual(await walk(`updated_since=${encodeURIComponent(since)}&limit=1`), [ids[5], ids[0]]);
    assert.deepEqual(await walk(`updated_since=${encodeURIComponent(since)}&order_by=updated_at&direction=asc`), [
      ids[0],
      ids[5],
    ]);
    const taipei = new Date(suite.t.clock.now().getTime() + 8 * 3600_000).toISOString().replace('Z', '+08:00');
    assert.deepEqual(await walk(`updated_since=${encodeURIComponent(taipei)}`), [ids[5]], 'the offset is honoured');
    const newest = (await page('order_by=updated_at&limit=2')).data.map((p) => p.id);
    assert.deepEqual(newest, [ids[5], ids[0]]);
  });

  it('sync feed: never skips or repeats an unchanged post while others are edited between pages', async () => {
    // Everything updated at or after the start of this test, in the order of change.
    const since = new Date(suite.t.clock.now().getTime()).toISOString().replace('Z', '+00:00');
    suite.t.clock.advance(1000);
    // Several posts share one update time (ties broken by id).
    for (const id of ids) await edit(id, `sync ${id}`);
    const query = `order_by=updated_at&direction=asc&updated_since=${encodeURIComponent(since)}&limit=2`;
    const before = await walk(query);
    assert.deepEqual(before, ids);
    const editedDuringWalk = [ids[1], ids[6], ids[8]];
    const seen = await walk(query, async (n) => {
      suite.t.clock.advance(1000);
      // An already-seen post, a post not reached yet, and (later) the last one.
      if (n === 1) await edit(ids[1], 'changed behind the walk');
      if (n === 1) await edit(ids[6], 'changed ahead of the walk');
      if (n === 3) await edit(ids[8], 'changed at the end');
    });
    const unchanged = ids.filter((id) => !editedDuringWalk.includes(id));
    for (const id of unchanged)
      assert.equal(seen.filter((s) => s === id).length, 1, `unchanged post ${id} seen once in ${seen}`);
    // An edited post moves to the end, in the order of its change.
    assert.deepEqual(seen.slice(-3), [ids[1], ids[6], ids[8]]);
    assert.deepEqual(
      seen.filter((id) => unchanged.includes(id)),
      unchanged,
      'unchanged posts in their order',
    );
  });

  it('a cursor from one order restarts under another', async () => {
    const first = await page('order_by=updated_at&limit=2');
    const restarted = await page(`order_by=created_at&limit=2&cursor=${encodeURIComponent(first.meta.next_cursor!)}`);
    assert.deepEqual(
      restarted.data.map((p) => p.id),
      [ids[8], ids[7]],
    );
    const since = await page(
      `order_by=updated_at&limit=2&updated_since=2026-01-01T00:00:00%2B08:00&cursor=${encodeURIComponent(first.meta.next_cursor!)}`,
    );
    assert.deepEqual(
      since.data.map((p) => p.id),
      first.data.map((p) => p.id),
      'adding updated_since restarts too',
    );
    const continued = await page(`order_by=updated_at&limit=2&cursor=${encodeURIComponent(first.meta.next_cursor!)}`);
    assert.notDeepEqual(
      continued.data.map((p) => p.id),
      first.data.map((p) => p.id),
    );
  });
});
