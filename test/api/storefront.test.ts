// Store front pages served by the service: visibility, escaping, security headers, HTTP
// validators, the index with its paging, and view counting by the pages' beacon.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { START_TIME } from '../helpers/test-app.js';
import { createPost, publish } from '../helpers/posts.js';
import { secondInstance } from '../helpers/second-instance.js';
import { htmlProblems } from '../helpers/html-validation.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { VIEW_FLUSH_INTERVAL_MS, VIEW_REPEAT_MS } from '../../src/modules/storefront/index.js';
import { PeriodicJobs } from '../../src/lib/periodic.js';
import { settled } from '../helpers/settled.js';
import { manualTimers } from '../helpers/manual-timers.js';
import type { Store } from '../../src/modules/stores/index.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const NOT_FOUND_TEXT = '找不到頁面';

describeTenantApp('store front pages', (suite) => {
  const postUrl = (id: number, handle = suite.store.handle) => `/s/${handle}/blog/posts/${id}`;
  const page = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    suite.t.request({ method, url, headers });
  const apiPost = async (id: number, k = suite.key) => {
    const res = await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key: k });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
  let clients = 0;
  /** A view as a reader's browser reports it: the page's beacon, from its own address (one view per address per window). */
  const beacon = (id: number, app = suite.t.app, handle = suite.store.handle) =>
    app.inject({
      method: 'POST',
      url: `${postUrl(id, handle)}/views`,
      headers: { 'user-agent': BROWSER },
      remoteAddress: `10.${(++clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`,
    });
  /** The page's script elements: the JSON-LD block (post pages) and the view beacon file. */
  const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  /** The count as the API reports it once every view counted so far is written. */
  const viewCount = async (id: number) => {
    await suite.t.ctx.storefront.views.flush();
    return (await apiPost(id)).view_count as number;
  };
  const publishedPost = async (body: Record<string, unknown> = {}, k = suite.key) => {
    const post = await createPost(suite.t, k, body);
    assert.equal((await publish(suite.t, k, post.id)).statusCode, 200);
    return post;
  };
  const createCategory = async (name: string, k = suite.key) => {
    const res = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key: k,
      headers: { 'idempotency-key': `cat-${randomLowerAlnum(12)}` },
      body: { name },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as number;
  };
  /** An uploaded image as the media module records it (the page needs the row, not the file). */
  const insertImage = async (s: Store, width = 800, height = 600) => {
    const basename = `${randomLowerAlnum(24)}.jpg`;
    await suite.t.ctx.db
      .insertInto('images')
      .values({
        id: `img_${randomLowerAlnum(24)}`,
        store_id: s.id,
        basename,
        sha256: randomLowerAlnum(64),
        content_type: 'image/jpeg',
        width,
        height,
        bytes: 1234,
        created_at: Date.parse(START_TIME),
        deleted_at: null,
      })
      .execute();
    return `http://blog.test/media/${s.handle}/${basename}`;
  };
  const assertNotFoundPage = (res: LightMyRequestResponse, hidden?: string) => {
    assert.equal(res.statusCode, 404, res.body);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
    assert.ok(res.body.startsWith('<!doctype html>'), 'an HTML page, not the JSON envelope');
    assert.ok(res.body.includes(NOT_FOUND_TEXT));
    assert.equal(
      res.headers['cache-control'],
      'no-store',
      'a 404 is never cached: a scheduled post may appear any moment',
    );
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    if (hidden !== undefined) assert.ok(!res.body.includes(hidden), 'nothing of the post leaks');
  };

  it('a published post: an HTML5 page with title, summary, filtered body, cover, publish date in the store offset and categories', async () => {
    const travel = await createCategory('Travel & Food');
    const news = await createCategory('News');
    const cover = await insertImage(suite.store);
    const post = await createPost(suite.t, suite.key, {
      title: 'Autumn menu',
      summary: 'What we cook this season',
      body_html:
        '<h2>Soups</h2><p>Hello <strong>world</strong> <a href="https://example.com/x" onclick="steal()">link</a></p><script>alert(1)</script>',
      cover_image_url: cover,
      category_ids: [news, travel],
      default_category_id: travel,
    });
    assert.equal((await publish(suite.t, suite.key, post.id, '2026-09-14T20:30:00Z')).statusCode, 200);

    const res = await page(postUrl(post.id));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    const html = res.body;
    assert.ok(html.startsWith('<!doctype html>\n<html lang="zh-Hant-TW">'));
    assert.ok(html.includes('<meta charset="utf-8">'));
    assert.ok(html.includes('<title>Autumn menu | Test Store</title>'));
    assert.ok(html.includes('<h1>Autumn menu</h1>'));
    assert.ok(html.includes('<p class="summary">What we cook this season</p>'));
    assert.ok(html.includes('<meta name="description" content="What we cook this season">'));
    assert.ok(
      html.includes('<h2>Soups</h2><p>Hello <strong>world</strong> <a href="https://example.com/x">link</a></p>'),
      'the stored, filtered body as is',
    );
    assert.ok(!/onclick|alert\(1\)/.test(html), 'nothing the filter removed comes back');
    assert.deepEqual(
      scriptTags(html).map(
        (tag) => /^<script (type="application\/ld\+json"|src="[^"]+\/s\/assets\/views\.js)/.exec(tag)?.[1],
      ),
      ['type="application/ld+json"', 'src="http://blog.test/s/assets/views.js'],
      'the only scripts: the structured data and the view beacon file',
    );
    assert.ok(
      html.includes(
        `<img class="cover" src="${cover}" srcset="${cover}?w=320 320w, ${cover}?w=640 640w, ${cover} 800w" sizes="(max-width: 46rem) calc(100vw - 2.5rem), 43.5rem" alt="Autumn menu" width="800" height="600" fetchpriority="high">`,
      ),
    );
    assert.ok(
      html.includes('<time datetime="2026-09-15T04:30:00+08:00">2026-09-15</time>'),
      'date written in the store offset (+08:00)',
    );
    const categoryLink = (id: number) => `http://blog.test/s/${suite.store.handle}/blog/categories/${id}`;
    assert.ok(
      html.includes(
        `<ul class="categories"><li><a href="${categoryLink(travel)}">Travel &amp; Food</a></li><li><a href="${categoryLink(news)}">News</a></li></ul>`,
      ),
      'main category first, each linked to its page',
    );
    assert.ok(
      html.includes(`<link rel="canonical" href="http://blog.test/s/${suite.store.handle}/blog/posts/${post.id}">`),
    );
    assert.ok(
      html.includes(
        `<header class="site"><a href="http://blog.test/s/${suite.store.handle}/blog">Test Store</a></header>`,
      ),
    );
    assert.equal(
      (await apiPost(post.id)).public_url,
      `http://blog.test${postUrl(post.id)}`,
      'public_url is the page served here',
    );
  });

  it('every page is valid HTML: post (with categories, cover and summary), index, older page and 404', async () => {
    const own = await suite.t.tenant({ categories: true });
    const a = await createCategory('Travel & Food', own.key);
    const b = await createCategory('News', own.key);
    const cover = await insertImage(own.store);
    const post = await createPost(suite.t, own.key, {
      title: 'Autumn <menu>',
      summary: 'What we cook',
      body_html: '<h2>Soups</h2><p>Hello <em>world</em></p><ul><li>one</li></ul><table><tr><td>x</td></tr></table>',
      cover_image_url: cover,
      category_ids: [a, b],
      default_category_id: a,
    });
    assert.equal((await publish(suite.t, own.key, post.id)).statusCode, 200);
    for (let i = 0; i < 21; i++) await publishedPost({ summary: `Summary ${i}` }, own.key);
    const pages: Record<string, LightMyRequestResponse> = {
      post: await page(postUrl(post.id, own.store.handle)),
      'post without categories': await page(postUrl((await publishedPost({}, own.key)).id, own.store.handle)),
      index: await page(`/s/${own.store.handle}/blog`),
      'not found': await page(postUrl(999_999, own.store.handle)),
    };
    const older = /href="[^"]*\/blog\?before=([^"]+)" rel="next"/.exec(pages.index.body);
    assert.ok(older, 'the index links to older posts');
    pages['older page'] = await page(`/s/${own.store.handle}/blog?before=${older[1]}`);
    assert.ok(pages.post.body.includes('<ul class="categories">'), 'the post page lists its categories');
    for (const [name, res] of Object.entries(pages)) {
      assert.deepEqual(await htmlProblems(res.body), [], `${name} page (${res.statusCode})`);
    }
  });

  it('the publish date follows the store offset', async () => {
    const west = await suite.t.createStore({ changes: { utc_offset: '-05:00' } });
    const westKey = await suite.t.issueKey(west);
    const post = await createPost(suite.t, westKey);
    await publish(suite.t, westKey, post.id, '2026-09-15T02:00:00Z');
    const res = await page(postUrl(post.id, west.handle));
    assert.ok(res.body.includes('<time datetime="2026-09-14T21:00:00-05:00">2026-09-14</time>'), res.body);
  });

  it('escapes every text that is not the filtered body: title, summary, category names, store name', async () => {
    const shop = await suite.t.createStore({ changes: { name: '<i>Shop</i> & "Co"' } });
    const shopKey = await suite.t.issueKey(shop);
    const category = await createCategory('<b>cat</b>', shopKey);
    const cover = await insertImage(shop);
    const title = '<script>alert(1)</script> & "quotes"';
    const post = await createPost(suite.t, shopKey, {
      title,
      summary: '<img src=x onerror=alert(2)>',
      body_html: '<p>plain</p>',
      category_ids: [category],
      cover_image_url: cover,
    });
    await publish(suite.t, shopKey, post.id);
    const html = (await page(postUrl(post.id, shop.handle))).body;
    assert.ok(html.includes('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</h1>'));
    assert.ok(
      html.includes(
        '<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; | &lt;i&gt;Shop&lt;/i&gt; &amp; &quot;Co&quot;</title>',
      ),
    );
    assert.ok(
      html.includes('alt="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"'),
      'escaped inside the attribute too',
    );
    assert.ok(html.includes('<p class="summary">&lt;img src=x onerror=alert(2)&gt;</p>'));
    assert.ok(html.includes('content="&lt;img src=x onerror=alert(2)&gt;"'));
    assert.ok(html.includes('>&lt;b&gt;cat&lt;/b&gt;</a></li>'));
    assert.ok(html.includes('>&lt;i&gt;Shop&lt;/i&gt; &amp; &quot;Co&quot;</a>'));
    assert.equal(scriptTags(html).length, 2, 'no script element but the JSON-LD block and the beacon file');
    assert.ok(!html.includes('<script>'));
    assert.ok(!html.includes('<img src=x'));
    assert.ok(!html.includes('<b>cat'));
    assert.ok(!html.includes('<i>Shop'));
    const index = (await page(`/s/${shop.handle}/blog`)).body;
    assert.ok(
      index.includes('&lt;script&gt;alert(1)&lt;/script&gt;') && !index.includes('<script>'),
      'the index escapes as well',
    );
  });

  it('drafts, unpublished, deleted, other stores’ posts, unknown and uncertified stores are 404 pages', async () => {
    const draft = await createPost(suite.t, suite.key, { title: 'Secret draft' });
    assertNotFoundPage(await page(postUrl(draft.id)), 'Secret draft');

    const unpublished = await publishedPost({ title: 'Gone again' });
    assert.equal((await page(postUrl(unpublished.id))).statusCode, 200);
    await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${unpublished.id}/unpublish`, key: suite.key });
    assertNotFoundPage(await page(postUrl(unpublished.id)), 'Gone again');

    const deleted = await createPost(suite.t, suite.key, { title: 'Deleted one' });
    const first = await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${deleted.id}`, key: suite.key });
    const token = first.json().error.details[0].issue;
    assert.equal(
      (
        await suite.t.request({
          method: 'DELETE',
          url: `/v1/blog/posts/${deleted.id}`,
          key: suite.key,
          body: { confirmation_token: token },
        })
      ).statusCode,
      204,
    );
    assertNotFoundPage(await page(postUrl(deleted.id)), 'Deleted one');

    const other = await suite.t.tenant();
    const foreign = await publishedPost({ title: 'Other store post' }, other.key);
    assert.equal((await page(postUrl(foreign.id, other.store.handle))).statusCode, 200, 'visible under its own store');
    assert.equal((await beacon(foreign.id, suite.t.app, other.store.handle)).statusCode, 204);
    assertNotFoundPage(await page(postUrl(foreign.id)), 'Other store post');
    assert.equal((await beacon(foreign.id)).statusCode, 404, 'no view under another store’s address');

    const mine = await publishedPost({ title: 'Mine' });
    assertNotFoundPage(await page(postUrl(mine.id, 'no-such-store')), 'Mine');
    assertNotFoundPage(await page(postUrl(mine.id, 'Not_A_Handle')));
    assertNotFoundPage(await page('/s/no-such-store/blog'));
    for (const id of ['abc', '0', `0${mine.id}`, '1e3', '99999999999999999999'])
      assertNotFoundPage(await page(`/s/${suite.store.handle}/blog/posts/${id}`));
    assertNotFoundPage(await page(`/s/${suite.store.handle}/blog/posts/${mine.id}/extra`));
    assertNotFoundPage(await page(`/s/${suite.store.handle}`));
    assertNotFoundPage(await page(`/s/${suite.store.handle}/blog/posts/${mine.id}`.replace('/blog/', '/blog/x/')));
    await suite.t.ctx.stores.update(suite.store.handle, { certified: 0 });
    assertNotFoundPage(await page(postUrl(mine.id)), 'Mine');
    assertNotFoundPage(await page(`/s/${suite.store.handle}/blog`), 'Mine');
    await suite.t.ctx.stores.update(suite.store.handle, { certified: 1 });
    assert.equal((await page(postUrl(mine.id))).statusCode, 200, 'visible again once certified');
    await suite.t.ctx.storefront.views.flush();
    assert.equal((await apiPost(draft.id)).view_count, 0);
    assert.equal((await apiPost(foreign.id, other.key)).view_count, 1, 'only the beacon under its own store counted');
  });

  it('a scheduled post is a 404 until its time and a page from that very moment', async () => {
    const post = await createPost(suite.t, suite.key, { title: 'Coming soon' });
    const due = '2026-09-15T04:00:00Z';
    assert.equal((await publish(suite.t, suite.key, post.id, due)).json().status, 'scheduled');
    try {
      assertNotFoundPage(await page(postUrl(post.id)), 'Coming soon');
      assert.ok(!(await page(`/s/${suite.store.handle}/blog`)).body.includes('Coming soon'), 'not listed either');
      suite.t.clock.set(Date.parse(due) - 1);
      assertNotFoundPage(await page(postUrl(post.id)));
      suite.t.clock.set(due);
      const res = await page(postUrl(post.id));
      assert.equal(res.statusCode, 200);
      assert.ok(res.body.includes('<h1>Coming soon</h1>'));
      assert.ok((await page(`/s/${suite.store.handle}/blog`)).body.includes('Coming soon'), 'listed from that moment');
    } finally {
      suite.t.clock.set(START_TIME);
    }
  });

  it('strict security headers: CSP whose only script is the beacon file, the inline style allowed by its hash, nosniff, referrer policy', async () => {
    const post = await publishedPost();
    const res = await page(postUrl(post.id));
    const csp = String(res.headers['content-security-policy']);
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('base-uri'), ["'none'"]);
    assert.deepEqual(directives.get('form-action'), ["'none'"]);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(
      directives.get('script-src'),
      ['http://blog.test/s/assets/views.js'],
      'that one file, nothing inline',
    );
    assert.deepEqual(
      directives.get('connect-src'),
      ['http://blog.test/s/', 'http://blog.test/robots.txt'],
      'the beacon posts to the store front; audit tools read robots.txt',
    );
    assert.ok(!csp.includes('unsafe-'), 'no unsafe-* anywhere');
    const tag = scriptTags(res.body).find((t) => t.includes(' src='));
    const src = /src="([^"]+)"/.exec(tag ?? '')?.[1] ?? '';
    const script = await page(src.replace('http://blog.test', ''));
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.ok(
      tag?.includes(`integrity="sha256-${createHash('sha256').update(script.body).digest('base64')}"`),
      'the page names the script by its hash (Subresource Integrity)',
    );
    assert.deepEqual(directives.get('img-src'), ["'self'", 'http://blog.test', 'https:']);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';
    assert.ok(style.length > 100);
    assert.deepEqual(
      directives.get('style-src'),
      [`'sha256-${createHash('sha256').update(style).digest('base64')}'`],
      'the hash is that of the page’s own style block',
    );
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['x-svc-api-version'], undefined, 'a page is not an API response');
    const index = await page(`/s/${suite.store.handle}/blog`);
    assert.equal(index.headers['content-security-policy'], csp);
    assert.equal(index.headers['x-content-type-options'], 'nosniff');
  });

  it('ETag: revalidation answers 304 without a body; an edit changes the ETag', async () => {
    const post = await publishedPost({ title: 'Versioned' });
    const first = await page(postUrl(post.id));
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(first.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=30');
    assert.equal((await page(postUrl(post.id))).headers.etag, etag, 'same page, same ETag');

    const revalidated = await page(postUrl(post.id), { 'if-none-match': etag });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.body, '');
    assert.equal(revalidated.headers.etag, etag);
    assert.equal(revalidated.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=30');
    assert.match(String(revalidated.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(
      (await page(postUrl(post.id), { 'if-none-match': `"other", W/${etag}` })).statusCode,
      304,
      'weak comparison, lists',
    );
    assert.equal((await page(postUrl(post.id), { 'if-none-match': '"other"' })).statusCode, 200);

    suite.t.clock.advance(60_000);
    await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${post.id}`,
      key: suite.key,
      body: { title: 'Versioned, edited' },
    });
    const changed = await page(postUrl(post.id), { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200, 'the old copy is stale');
    assert.notEqual(changed.headers.etag, etag);
    assert.ok(changed.body.includes('<h1>Versioned, edited</h1>'));
    suite.t.clock.set(START_TIME);
  });

  it('Last-Modified: If-Modified-Since at or after it answers 304, before it 200; If-None-Match wins when both are sent', async () => {
    suite.t.clock.set('2026-09-15T02:10:00.500Z');
    try {
      const post = await publishedPost();
      suite.t.clock.set('2026-09-15T02:30:00Z');
      const res = await page(postUrl(post.id));
      assert.equal(res.headers['last-modified'], 'Tue, 15 Sep 2026 02:10:00 GMT');
      const ims = (value: string, extra: Record<string, string> = {}) =>
        page(postUrl(post.id), { 'if-modified-since': value, ...extra });
      assert.equal((await ims('Tue, 15 Sep 2026 02:10:00 GMT')).statusCode, 304);
      assert.equal((await ims('Wed, 16 Sep 2026 00:00:00 GMT')).statusCode, 304);
      assert.equal((await ims('Tue, 15 Sep 2026 02:09:59 GMT')).statusCode, 200);
      assert.equal((await ims('not a date')).statusCode, 200);
      assert.equal(
        (await ims('Wed, 16 Sep 2026 00:00:00 GMT', { 'if-none-match': '"stale"' })).statusCode,
        200,
        'If-None-Match decides',
      );

      suite.t.clock.set('2026-09-15T03:00:00Z');
      await suite.t.request({
        method: 'PATCH',
        url: `/v1/blog/posts/${post.id}`,
        key: suite.key,
        body: { summary: 'now with a summary' },
      });
      const edited = await ims('Tue, 15 Sep 2026 02:10:00 GMT');
      assert.equal(edited.statusCode, 200);
      assert.equal(edited.headers['last-modified'], 'Tue, 15 Sep 2026 03:00:00 GMT');

      // A post scheduled for later becomes visible at its publish time, which is newer than its last edit.
      const scheduled = await createPost(suite.t, suite.key);
      await publish(suite.t, suite.key, scheduled.id, '2026-09-15T04:00:00Z');
      suite.t.clock.set('2026-09-15T05:00:00Z');
      assert.equal((await page(postUrl(scheduled.id))).headers['last-modified'], 'Tue, 15 Sep 2026 04:00:00 GMT');
    } finally {
      suite.t.clock.set(START_TIME);
    }
  });

  it('the index lists published posts by publish time, newest first, 20 a page, with an “older posts” link', async () => {
    const shop = await suite.t.tenant();
    const base = Date.parse('2026-08-01T00:00:00Z');
    // Created in one order, published in another: the index follows the publish time.
    const order = [5, 0, 22, 13, 7, 19, 1, 11, 3, 17, 9, 21, 15, 2, 8, 20, 4, 12, 16, 6, 18, 10, 14];
    const published: Array<{ id: number; at: number }> = [];
    for (const n of order) {
      const post = await createPost(suite.t, shop.key, { title: `Index post ${n}` });
      const at = base + n * 3_600_000;
      await publish(suite.t, shop.key, post.id, new Date(at).toISOString());
      published.push({ id: post.id, at });
    }
    const draft = await createPost(suite.t, shop.key, { title: 'Index draft' });
    const scheduled = await createPost(suite.t, shop.key, { title: 'Index scheduled' });
    await publish(suite.t, shop.key, scheduled.id, '2027-01-01T00:00:00Z');
    const expected = [...published].sort((a, b) => b.at - a.at).map((p) => p.id);

    const idsOn = (html: string) => [...html.matchAll(/\/blog\/posts\/(\d+)">/g)].map((m) => Number(m[1]));
    const first = await page(`/s/${shop.store.handle}/blog`);
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['content-type'], 'text/html; charset=utf-8');
    assert.deepEqual(idsOn(first.body), expected.slice(0, 20));
    assert.ok(!first.body.includes(`/blog/posts/${draft.id}"`) && !first.body.includes('Index scheduled'));
    assert.ok(
      first.body.includes('<time datetime="2026-08-01T22:00:00+08:00">2026-08-01</time>'),
      'dates in the store offset',
    );
    const older = /<a href="([^"]+)" rel="next">較舊的文章<\/a>/.exec(first.body);
    assert.ok(older, 'an older-posts link');
    const olderUrl = new URL(older[1].replaceAll('&amp;', '&'));
    assert.equal(olderUrl.origin + olderUrl.pathname, `http://blog.test/s/${shop.store.handle}/blog`);

    const second = await page(olderUrl.pathname + olderUrl.search);
    assert.equal(second.statusCode, 200);
    assert.deepEqual(idsOn(second.body), expected.slice(20));
    assert.ok(!second.body.includes('rel="next"'), 'the last page has no older link');
    assert.ok(second.body.includes(`<a href="http://blog.test/s/${shop.store.handle}/blog" rel="first">`));

    assert.equal(
      (await page(`/s/${shop.store.handle}/blog`, { 'if-none-match': String(first.headers.etag) })).statusCode,
      304,
    );
    for (const bad of ['x', '1.0', '12', '-1.5'])
      assertNotFoundPage(await page(`/s/${shop.store.handle}/blog?before=${bad}`));
    assertNotFoundPage(await page(`/s/${shop.store.handle}/blog?before=1.2&before=3.4`));

    const empty = await suite.t.tenant();
    const none = await page(`/s/${empty.store.handle}/blog`);
    assert.equal(none.statusCode, 200);
    assert.ok(none.body.includes('目前沒有文章'));
  });

  it('every beacon from a reader counts exactly one view, 50 at once included, while batches are being written; page GETs count none', async () => {
    const post = await publishedPost();
    assert.equal(await viewCount(post.id), 0);
    // Batches are written over and over while the views arrive, as under real traffic.
    let viewing = true;
    const flushing = (async () => {
      while (viewing) await Promise.all([suite.t.ctx.storefront.views.flush(), new Promise((r) => setImmediate(r))]);
    })();
    const results = await Promise.all(Array.from({ length: 50 }, () => beacon(post.id)));
    viewing = false;
    await flushing;
    assert.deepEqual(new Set(results.map((r) => r.statusCode)), new Set([204]));
    assert.equal(results[0].body, '');
    assert.equal(results[0].headers['cache-control'], 'no-store');
    assert.equal(await viewCount(post.id), 50);
    assert.equal(await viewCount(post.id), 50, 'a flush with nothing new writes nothing');

    const first = await page(postUrl(post.id));
    assert.equal((await page(postUrl(post.id), { 'if-none-match': String(first.headers.etag) })).statusCode, 304);
    assert.equal(await viewCount(post.id), 50, 'the page itself (200 or 304, perhaps from a cache) is not the count');
  });

  it('HEAD requests, 404s, robots and repeats within the window are not views', async () => {
    const post = await publishedPost();
    assert.equal((await beacon(post.id)).statusCode, 204);
    for (let i = 0; i < 5; i++) {
      const head = await page(postUrl(post.id), {}, 'HEAD');
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers['content-type'], 'text/html; charset=utf-8');
      assert.ok(head.headers.etag);
    }
    assert.equal(await viewCount(post.id), 1);
    const draft = await createPost(suite.t, suite.key);
    assertNotFoundPage(await page(postUrl(draft.id)));
    assert.equal((await beacon(draft.id)).statusCode, 404, 'no beacon for a post that is not visible');
    assert.equal((await beacon(post.id, suite.t.app, 'no-such-store')).statusCode, 404);
    assert.equal(await viewCount(draft.id), 0);

    const robots = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'facebookexternalhit/1.1',
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36 Chrome-Lighthouse',
      'curl/8.5.0',
    ];
    for (const agent of [...robots, '']) {
      const res = await suite.t.app.inject({
        method: 'POST',
        url: `${postUrl(post.id)}/views`,
        headers: { 'user-agent': agent },
        remoteAddress: '192.0.2.7',
      });
      assert.equal(res.statusCode, 204, 'a robot is told nothing');
    }
    assert.equal(await viewCount(post.id), 1, 'robots and clients without a user agent are not counted');

    // One reader's address: one view per post per window, then another.
    const reader = () =>
      suite.t.app.inject({
        method: 'POST',
        url: `${postUrl(post.id)}/views`,
        headers: { 'user-agent': BROWSER },
        remoteAddress: '198.51.100.9',
      });
    for (let i = 0; i < 10; i++) assert.equal((await reader()).statusCode, 204);
    assert.equal(await viewCount(post.id), 2, 'ten beacons in a burst from one address are one view');
    suite.t.clock.advance(VIEW_REPEAT_MS - 1);
    await reader();
    assert.equal(await viewCount(post.id), 2);
    suite.t.clock.advance(1);
    await reader();
    assert.equal(await viewCount(post.id), 3, 'the window over, the same reader counts again');
    suite.t.clock.set(START_TIME);
  });

  it('views reach the database a second after they are counted, without anyone asking', async () => {
    const post = await publishedPost();
    // A fresh instance whose view-flush job (as a server runs it) waits on the test's timers.
    const other = await secondInstance(suite.t);
    const timers = manualTimers();
    const flushes = new PeriodicJobs([other.ctx.jobs.job('view-counts')], { timers });
    flushes.start();
    try {
      // The row itself is watched while the write runs (reading through the API would spend the key's allowance).
      const stored = async () =>
        (
          await suite.t.ctx.db
            .selectFrom('posts')
            .select('view_count')
            .where('id', '=', post.id)
            .executeTakeFirstOrThrow()
        ).view_count;
      await Promise.all(Array.from({ length: 3 }, () => beacon(post.id, other.app)));
      timers.tick(VIEW_FLUSH_INTERVAL_MS - 1);
      assert.equal(
        await settled(async () => (await stored()) !== 0, 50),
        false,
        'nothing is written before the second is up',
      );
      timers.tick(1);
      assert.ok(await settled(async () => (await stored()) === 3), 'the timer wrote the 3 views');
      assert.equal((await apiPost(post.id)).view_count, 3);
    } finally {
      await flushes.stop();
      await other.close();
    }
  });

  it('views counted by another instance are summed and written when that instance closes', async () => {
    const post = await publishedPost();
    const other = await secondInstance(suite.t);
    await Promise.all([
      ...Array.from({ length: 7 }, () => beacon(post.id, other.app)),
      ...Array.from({ length: 4 }, () => beacon(post.id)),
    ]);
    await other.close();
    assert.equal(await viewCount(post.id), 11);
  });

  it('a custom storefront base changes public_url; the service still serves /s/<handle>', async () => {
    const shop = await suite.t.tenant();
    const post = await publishedPost({ title: 'Elsewhere too' }, shop.key);
    assert.equal(
      (await apiPost(post.id, shop.key)).public_url,
      `http://blog.test/s/${shop.store.handle}/blog/posts/${post.id}`,
    );
    await suite.t.ctx.stores.update(shop.store.handle, { storefront_base_url: 'https://shop.example.com/journal' });
    const freshKey = await suite.t.issueKey(shop.store);
    assert.equal(
      (await apiPost(post.id, freshKey)).public_url,
      `https://shop.example.com/journal/blog/posts/${post.id}`,
    );
    const res = await page(postUrl(post.id, shop.store.handle));
    assert.equal(res.statusCode, 200);
    assert.ok(
      res.body.includes(`<link rel="canonical" href="https://shop.example.com/journal/blog/posts/${post.id}">`),
      'the separate front end is the canonical address',
    );
  });

  it('store front routes are not in the OpenAPI description', async () => {
    const doc = (await suite.t.request({ method: 'GET', url: '/v1/openapi.json', key: suite.key })).json();
    const paths = Object.keys(doc.paths);
    assert.ok(paths.includes('/v1/blog/posts'));
    assert.deepEqual(
      paths.filter((p) => !p.startsWith('/v1')),
      [],
    );
  });
});
