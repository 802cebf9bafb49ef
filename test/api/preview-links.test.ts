// Draft preview links: POST /v1/blog/posts/{id}/preview-links and the page the link opens.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { htmlProblems } from '../helpers/html-validation.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const BASE = 'http://blog.test';

describeTenantApp('preview links', (suite) => {
  const issue = (id: number, body?: unknown, k = suite.key) =>
    suite.t.request({
      method: 'POST',
      url: `/v1/blog/posts/${id}/preview-links`,
      key: k,
      ...(body === undefined ? {} : { body }),
    });
  const linkOf = async (id: number, body?: unknown) => {
    const res = await issue(id, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { url: string; expires_at: string };
  };
  const open = (url: string, method: 'GET' | 'HEAD' = 'GET') => {
    assert.ok(url.startsWith(`${BASE}/`), url);
    return suite.t.request({ method, url: url.slice(BASE.length) });
  };
  const viewCount = async (id: number) => {
    await suite.t.ctx.storefront.views.flush();
    return (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key: suite.key })).json()
      .view_count as number;
  };
  const assertNotFound = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 404, res.body);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.ok(res.body.includes('找不到頁面'));
    assert.equal(res.headers['cache-control'], 'no-store');
  };

  it('answers 201 {url, expires_at}; the page shows the draft as the store front renders it, marked as a preview', async () => {
    const post = await createPost(suite.t, suite.key, {
      title: 'Secret <draft>',
      summary: 'Coming soon',
      body_html: '<p>Launch <strong>plans</strong></p>',
    });
    const res = await issue(post.id);
    assert.equal(res.statusCode, 201, res.body);
    const link = res.json();
    assert.deepEqual(Object.keys(link).sort(), ['expires_at', 'url']);
    assert.equal(link.expires_at, '2026-09-16T10:00:00+08:00', 'one day by default, in the store’s offset');
    assert.match(
      link.url,
      new RegExp(`^${BASE}/s/${suite.store.handle}/blog/preview/${post.id}\\.\\d+\\.[A-Za-z0-9_-]{43}$`),
    );
    assert.equal(res.headers['cache-control'], 'no-store');

    const page = await open(link.url);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(String(page.headers['content-type']), /^text\/html; charset=utf-8/);
    assert.ok(page.body.includes('<h1>Secret &lt;draft&gt;</h1>'));
    assert.ok(page.body.includes('<p>Launch <strong>plans</strong></p>'));
    assert.ok(page.body.includes('<p class="summary">Coming soon</p>'));
    assert.ok(page.body.includes('<meta name="robots" content="noindex, nofollow">'));
    assert.ok(!page.body.includes('rel="canonical"'), 'a preview names no canonical address');
    assert.match(page.body, /<p class="preview" role="status">預覽：草稿，尚未發佈。[^<]*<\/p>/);
    assert.ok(page.body.includes('<div class="meta">草稿</div>'));
    assert.equal(page.headers['x-robots-tag'], 'noindex, nofollow');
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.equal(page.headers['referrer-policy'], 'no-referrer', 'the signed address is not sent on');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal(page.headers['x-frame-options'], 'DENY');
    const index = await suite.t.app.inject({ method: 'GET', url: `/s/${suite.store.handle}/blog` });
    assert.equal(
      page.headers['content-security-policy'],
      index.headers['content-security-policy'],
      'the store front’s strict policy',
    );
    assert.ok(!page.body.includes('<script'), 'a preview sends no view beacon and has no structured data');
    assert.deepEqual(await htmlProblems(page.body), []);
    const head = await open(link.url, 'HEAD');
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
  });

  it('shows the current content, for drafts, scheduled and published posts, and never counts a view', async () => {
    const post = await createPost(suite.t, suite.key, { title: 'Version one' });
    const link = await linkOf(post.id);
    assert.ok((await open(link.url)).body.includes('Version one'));
    const patched = await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${post.id}`,
      key: suite.key,
      body: { title: 'Version two' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    let page = await open(link.url);
    assert.ok(page.body.includes('<h1>Version two</h1>') && !page.body.includes('Version one'));

    assert.equal((await publish(suite.t, suite.key, post.id, '2026-12-25T09:30:00+08:00')).statusCode, 200);
    page = await open(link.url);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('預覽：已排程，將於 2026-12-25 09:30 發佈。'), page.body);
    const publicPage = await suite.t.request({ method: 'GET', url: `/s/${suite.store.handle}/blog/posts/${post.id}` });
    assert.equal(publicPage.statusCode, 404, 'the public page still hides it');

    assert.equal((await publish(suite.t, suite.key, post.id)).statusCode, 200);
    page = await open(link.url);
    assert.ok(page.body.includes('預覽：已發佈。'));
    assert.ok(page.body.includes('<time datetime="2026-09-15T10:00:00+08:00">2026-09-15</time>'));
    for (let i = 0; i < 3; i++) assert.equal((await open(link.url)).statusCode, 200);
    assert.equal(await viewCount(post.id), 0, 'previews are not views');
    const publicUrl = `/s/${suite.store.handle}/blog/posts/${post.id}`;
    assert.ok((await suite.t.request({ method: 'GET', url: publicUrl })).body.includes('/views"'));
    const beacon = await suite.t.app.inject({
      method: 'POST',
      url: `${publicUrl}/views`,
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' },
    });
    assert.equal(beacon.statusCode, 204);
    assert.equal(await viewCount(post.id), 1, 'the public page’s beacon still counts');
  });

  it('answers 404 once expired (by the injected clock)', async () => {
    const post = await createPost(suite.t, suite.key);
    const link = await linkOf(post.id, { expires_in_seconds: 60 });
    assert.equal(
      link.expires_at,
      new Date(Math.floor(suite.t.clock.now().getTime() / 1000) * 1000 + 60_000 + 8 * 3600_000)
        .toISOString()
        .replace('.000Z', '+08:00'),
    );
    const longer = await linkOf(post.id, { expires_in_seconds: 604_800 });
    suite.t.clock.advance(59_000);
    assert.equal((await open(link.url)).statusCode, 200);
    suite.t.clock.advance(1_000);
    assertNotFound(await open(link.url));
    assert.equal((await open(longer.url)).statusCode, 200);
    suite.t.clock.advance(604_800_000);
    assertNotFound(await open(longer.url));
  });

  it('answers 404 once the post is deleted', async () => {
    const post = await createPost(suite.t, suite.key);
    const link = await linkOf(post.id);
    assert.equal((await open(link.url)).statusCode, 200);
    const token = (await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${post.id}`, key: suite.key })).json()
      .error.details[0].issue;
    assert.equal(
      (
        await suite.t.request({
          method: 'DELETE',
          url: `/v1/blog/posts/${post.id}`,
          key: suite.key,
          body: { confirmation_token: token },
        })
      ).statusCode,
      204,
    );
    const res = await open(link.url);
    assertNotFound(res);
    assert.equal(res.headers['x-robots-tag'], 'noindex');
  });

  it('another store’s post is 404 not_found; a link works only under its own store and as signed', async () => {
    const other = await suite.t.tenant();
    const theirs = await createPost(suite.t, other.key);
    assertError(await issue(theirs.id), 'not_found');
    assertError(await issue(99999999), 'not_found');
    const mine = await createPost(suite.t, suite.key);
    const link = await linkOf(mine.id);
    assertNotFound(await open(link.url.replace(`/s/${suite.store.handle}/`, `/s/${other.store.handle}/`)));
    const [id, expiry, signature] = link.url.split('/').pop()!.split('.');
    const base = link.url.slice(0, link.url.lastIndexOf('/') + 1);
    assertNotFound(await open(`${base}${theirs.id}.${expiry}.${signature}`));
    assertNotFound(await open(`${base}${id}.${Number(expiry) + 86_400}.${signature}`));
    assertNotFound(
      await open(`${base}${id}.${expiry}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
    );
    assertNotFound(await open(`${base}${id}.${expiry}`));
    assertNotFound(await open(`${base}${id}`));
    assert.equal((await open(link.url)).statusCode, 200);
  });

  it('validates the body and needs write_blog', async () => {
    const post = await createPost(suite.t, suite.key);
    assertError(await issue(post.id, { expires_in_seconds: 59 }), 'validation_failed', [
      { field: 'expires_in_seconds', issue: 'must be >= 60' },
    ]);
    assertError(await issue(post.id, { expires_in_seconds: 604_801 }), 'validation_failed', [
      { field: 'expires_in_seconds', issue: 'must be <= 604800' },
    ]);
    assertError(await issue(post.id, { expires_in_seconds: 'soon' }), 'validation_failed', [
      { field: 'expires_in_seconds', issue: 'must be integer' },
    ]);
    assertError(await issue(post.id, { expires_in_seconds: 120.5 }), 'validation_failed', [
      { field: 'expires_in_seconds', issue: 'must be integer' },
    ]);
    assertError(await issue(post.id, { ttl: 60 }), 'validation_failed', [
      { field: 'ttl', issue: 'is not a recognised field' },
    ]);
    assertError(
      await suite.t.request({ method: 'POST', url: '/v1/blog/posts/0/preview-links', key: suite.key }),
      'validation_failed',
      [{ field: 'id', issue: 'must be >= 1' }],
    );
    const reader = await suite.t.issueKey(suite.store, ['read_blog']);
    assertError(await issue(post.id, undefined, reader), 'insufficient_scope', [
      { field: 'scope', issue: 'required: write_blog' },
    ]);
    assert.equal((await issue(post.id, {})).statusCode, 201, 'an empty body takes the default');
  });
});
