// The Content API (docs/content-api.md): a `read_published` key reaches the published posts and
// categories and /v1/me only; drafts, scheduled and unpublished posts are invisible; answers are
// cacheable (ETag, 304, Cache-Control public, Vary); CORS for the store's allowed origins only,
// never on management endpoints; a per-client-address limit beside the per-key one.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import type { TenantSuite } from '../helpers/tenant-app.js';
import type { Store } from '../../src/modules/stores/index.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';

const SHOP = 'https://shop.example';
const OTHER = 'https://elsewhere.example';
const CONTENT_GETS = ['/v1/content/posts', '/v1/content/categories'];

interface Fixture {
  store: Store;
  admin: string;
  content: string;
  published: { older: number; newer: number };
  draft: number;
  scheduled: number;
  unpublished: number;
  categoryId: number;
}

async function fixture(suite: TenantSuite): Promise<Fixture> {
  const t = suite.t;
  const store = await t.createStore({ changes: { allowed_origins: SHOP } });
  const admin = await t.issueKey(store);
  const content = await t.issueKey(store, ['read_published']);
  const category = await t.request({
    method: 'POST',
    url: '/v1/blog/categories',
    key: admin,
    headers: { 'idempotency-key': `cat-${Math.random()}` },
    body: { name: 'News' },
  });
  assert.equal(category.statusCode, 201, category.body);
  const categoryId = category.json().id as number;
  const older = (await createPost(t, admin, { title: 'Older news', category_ids: [categoryId] })).id;
  const newer = (await createPost(t, admin, { title: 'Newer story' })).id;
  const draft = (await createPost(t, admin, { title: 'Draft news' })).id;
  const scheduled = (await createPost(t, admin, { title: 'Scheduled news' })).id;
  const unpublished = (await createPost(t, admin, { title: 'Withdrawn news' })).id;
  // Published in the opposite order of creation: the Content API lists by publication time.
  assert.equal((await publish(t, admin, newer, '2026-09-15T08:00:00+08:00')).statusCode, 200);
  assert.equal((await publish(t, admin, older, '2026-09-15T09:00:00+08:00')).statusCode, 200);
  assert.equal((await publish(t, admin, unpublished)).statusCode, 200);
  const unpublishing = await t.request({ method: 'POST', url: `/v1/blog/posts/${unpublished}/unpublish`, key: admin });
  assert.equal(unpublishing.statusCode, 200);
  // An hour after the suite's start time.
  assert.equal((await publish(t, admin, scheduled, '2026-09-15T11:00:00+08:00')).statusCode, 200);
  return { store, admin, content, published: { older, newer }, draft, scheduled, unpublished, categoryId };
}

const get = (suite: TenantSuite, url: string, key: string, headers: Record<string, string> = {}) =>
  suite.t.request({ method: 'GET', url, key, headers });

const titles = (res: LightMyRequestResponse) => res.json().data.map((p: { title: string }) => p.title);

function assertCorsFor(res: LightMyRequestResponse, origin: string): void {
  assert.equal(res.headers['access-control-allow-origin'], origin);
  const exposed = String(res.headers['access-control-expose-headers']).split(', ');
  for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id', 'etag'])
    assert.ok(exposed.includes(header), `exposes ${header}`);
  assert.match(String(res.headers.vary), /\bOrigin\b/);
}

function assertNoCors(res: LightMyRequestResponse): void {
  for (const name of Object.keys(res.headers)) assert.ok(!name.startsWith('access-control-'), `no ${name}`);
}

describeTenantApp('Content API: scope, published content, caching and CORS', { tenant: false }, (suite) => {
  let f: Fixture;
  before(async () => {
    f = await fixture(suite);
  });

  it('a read_published key reaches the content endpoints and /v1/me, and every other endpoint is 403 insufficient_scope', async () => {
    for (const url of [...CONTENT_GETS, `/v1/content/posts/${f.published.older}`]) {
      const res = await get(suite, url, f.content);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    }
    const me = await get(suite, '/v1/me', f.content);
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json().scopes, ['read_published']);

    const paths = (suite.t.app.swagger() as { paths: Record<string, Record<string, any>> }).paths;
    let refused = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (path.startsWith('/v1/content/') || path === '/v1/me') continue;
        const url = path.replace('{id}', String(f.published.older)).replace('{delivery_id}', 'whd_unknown');
        const res = await suite.t.request({ method: method.toUpperCase() as 'GET', url, key: f.content });
        const required = (op.security[0].bearerAuth[0] as string | undefined) ?? 'read_blog';
        assertError(res, 'insufficient_scope', [{ field: 'scope', issue: `required: ${required}` }]);
        assertNoCors(res);
        refused++;
      }
    }
    assert.ok(refused >= 30, `every management operation was tried (${refused})`);
  });

  it('read_blog implies read_published: a management read key reaches the content endpoints', async () => {
    const reader = await suite.t.issueKey(f.store, ['read_blog']);
    for (const url of [...CONTENT_GETS, `/v1/content/posts/${f.published.newer}`])
      assert.equal((await get(suite, url, reader)).statusCode, 200, url);
    assert.deepEqual((await get(suite, '/v1/me', reader)).json().scopes, ['read_published', 'read_blog']);
    const writer = await suite.t.issueKey(f.store, ['write_blog']);
    assert.deepEqual((await get(suite, '/v1/me', writer)).json().scopes, ['read_published', 'read_blog', 'write_blog']);
    const mediaOnly = await suite.t.issueKey(f.store, ['write_media']);
    assertError(await get(suite, '/v1/content/posts', mediaOnly), 'insufficient_scope', [
      { field: 'scope', issue: 'required: read_published' },
    ]);
  });

  it('lists published posts only, newest published first, with the management list’s post objects and filters', async () => {
    const res = await get(suite, '/v1/content/posts', f.content);
    assert.deepEqual(titles(res), ['Older news', 'Newer story']);
    const managed = await get(suite, '/v1/blog/posts?status=published&order_by=published_at', f.admin);
    assert.deepEqual(res.json().data, managed.json().data);
    for (const item of res.json().data) {
      assert.equal(item.status, 'published');
      assert.equal(item.body_html, undefined);
    }
    // Paging: one at a time, the second page from the first's cursor.
    const first = await get(suite, '/v1/content/posts?limit=1', f.content);
    assert.deepEqual(titles(first), ['Older news']);
    const cursor = first.json().meta.next_cursor as string;
    const second = await get(suite, `/v1/content/posts?limit=1&cursor=${encodeURIComponent(cursor)}`, f.content);
    assert.deepEqual(titles(second), ['Newer story']);
    assert.equal(second.json().meta.next_cursor, null);
    assert.deepEqual(titles(await get(suite, `/v1/content/posts?category_id=${f.categoryId}`, f.content)), [
      'Older news',
    ]);
    // "news" is also in the draft's, the scheduled post's and the withdrawn post's titles.
    assert.deepEqual(titles(await get(suite, '/v1/content/posts?q=news', f.content)), ['Older news']);
    assertError(await get(suite, '/v1/content/posts?status=draft', f.content), 'validation_failed', [
      { field: 'status', issue: /./ },
    ]);
    assertError(await get(suite, '/v1/content/posts?limit=51', f.content), 'validation_failed', [
      { field: 'limit', issue: /./ },
    ]);
    assertError(await get(suite, '/v1/content/posts?cursor=forged', f.content), 'validation_failed', [
      { field: 'cursor', issue: /./ },
    ]);
  });

  it('a store without categories answers its content categories and a category filter 404 feature_unavailable', async () => {
    const store = await suite.t.createStore({ categories: false });
    const key = await suite.t.issueKey(store, ['read_published']);
    assertError(await get(suite, '/v1/content/categories', key), 'feature_unavailable');
    assertError(await get(suite, '/v1/content/posts?category_id=1', key), 'feature_unavailable', [
      { field: 'category_id', issue: /./ },
    ]);
    assert.deepEqual((await get(suite, '/v1/content/posts', key)).json().data, []);
  });

  it('a draft, a scheduled or an unpublished post is 404 not_found by id, and the scheduled one appears when its time comes', async () => {
    const one = await get(suite, `/v1/content/posts/${f.published.older}`, f.content);
    assert.equal(one.statusCode, 200);
    assert.deepEqual(one.json(), (await get(suite, `/v1/blog/posts/${f.published.older}`, f.admin)).json());
    for (const id of [f.draft, f.scheduled, f.unpublished, 987_654_321])
      assertError(await get(suite, `/v1/content/posts/${id}`, f.content), 'not_found');
    const otherStore = await suite.t.createStore();
    const otherKey = await suite.t.issueKey(otherStore, ['read_published']);
    assertError(await get(suite, `/v1/content/posts/${f.published.older}`, otherKey), 'not_found');

    suite.t.clock.advance(2 * 3_600_000);
    try {
      const scheduled = await get(suite, `/v1/content/posts/${f.scheduled}`, f.content);
      assert.equal(scheduled.statusCode, 200, scheduled.body);
      assert.equal(scheduled.json().status, 'published');
      assert.deepEqual(titles(await get(suite, '/v1/content/posts', f.content)), [
        'Scheduled news',
        'Older news',
        'Newer story',
      ]);
    } finally {
      suite.t.clock.advance(-2 * 3_600_000);
    }
  });

  it('answers are cacheable: ETag and 304, Cache-Control public with max-age and stale-while-revalidate, Vary', async () => {
    const { maxAgeSeconds, staleSeconds } = suite.t.config.publicCache;
    assert.ok(maxAgeSeconds >= 1);
    for (const url of [...CONTENT_GETS, `/v1/content/posts/${f.published.newer}`]) {
      const res = await get(suite, url, f.content);
      assert.equal(res.statusCode, 200);
      assert.equal(
        res.headers['cache-control'],
        `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${staleSeconds}`,
      );
      assert.equal(res.headers.vary, 'Origin, Authorization');
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const etag = String(res.headers.etag);
      assert.match(etag, /^"/);
      const again = await get(suite, url, f.content, { 'if-none-match': etag });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      assert.equal(again.headers.vary, 'Origin, Authorization');
      assert.equal(again.headers['cache-control'], res.headers['cache-control']);
      assert.equal((await get(suite, url, f.content, { 'if-none-match': '"stale"' })).statusCode, 200);
    }
    // A change shows at once to a client that revalidates: its copy is no longer current.
    const url = `/v1/content/posts/${f.published.newer}`;
    const before = await get(suite, url, f.content);
    const edit = await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${f.published.newer}`,
      key: f.admin,
      body: { summary: 'Changed' },
    });
    assert.equal(edit.statusCode, 200);
    const after = await get(suite, url, f.content, { 'if-none-match': String(before.headers.etag) });
    assert.equal(after.statusCode, 200);
    assert.equal(after.json().summary, 'Changed');
    const list = await get(suite, '/v1/content/posts', f.content);
    const listAfter = await get(suite, '/v1/content/posts', f.content, { 'if-none-match': String(list.headers.etag) });
    assert.equal(listAfter.statusCode, 304);
    // Errors stay uncacheable.
    const missing = await get(suite, '/v1/content/posts/987654321', f.content);
    assert.equal(missing.headers['cache-control'], 'no-store');
  });

  it('CORS preflight: 204 with the allowed origin echoed, GET only, the headers the SDK sends, a max age and Vary: Origin', async () => {
    for (const url of ['/v1/content/posts', `/v1/content/posts/${f.published.older}`, '/v1/content/categories']) {
      const res = await suite.t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: SHOP,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      assert.equal(res.statusCode, 204, url);
      assert.equal(res.headers['access-control-allow-origin'], SHOP);
      assert.equal(res.headers['access-control-allow-methods'], 'GET');
      const allowed = String(res.headers['access-control-allow-headers']).split(', ');
      for (const header of ['authorization', 'x-request-id', 'if-none-match'])
        assert.ok(allowed.includes(header), header);
      assert.ok(Number(res.headers['access-control-max-age']) >= 60);
      assert.match(String(res.headers.vary), /\bOrigin\b/);
      assert.equal(res.body, '');
    }
    const other = await suite.t.app.inject({
      method: 'OPTIONS',
      url: '/v1/content/posts',
      headers: { origin: OTHER, 'access-control-request-method': 'GET' },
    });
    assert.equal(other.statusCode, 204);
    assertNoCors(other);
    assert.match(String(other.headers.vary), /\bOrigin\b/);
  });

  it('CORS on the GET: the allowed origin is echoed with the exposed headers; another origin, or one only another store allows, gets none', async () => {
    const res = await get(suite, '/v1/content/posts', f.content, { origin: SHOP });
    assert.equal(res.statusCode, 200);
    assertCorsFor(res, SHOP);
    const refused = await get(suite, '/v1/content/posts', f.content, { origin: OTHER });
    assert.equal(refused.statusCode, 200);
    assertNoCors(refused);
    assert.equal(refused.headers.vary, 'Origin, Authorization');
    // An origin allowed by another store: its preflight passes, this store's answer is still refused.
    await suite.t.createStore({ changes: { allowed_origins: OTHER } });
    suite.t.clock.advance(10_000);
    const preflight = await suite.t.app.inject({
      method: 'OPTIONS',
      url: '/v1/content/posts',
      headers: { origin: OTHER },
    });
    assert.equal(preflight.headers['access-control-allow-origin'], OTHER);
    assertNoCors(await get(suite, '/v1/content/posts', f.content, { origin: OTHER }));
    // Errors of the content endpoints carry CORS too, so a page can read them.
    const missing = await get(suite, '/v1/content/posts/987654321', f.content, { origin: SHOP });
    assertError(missing, 'not_found');
    assertCorsFor(missing, SHOP);
    const unauthorized = await suite.t.request({ method: 'GET', url: '/v1/content/posts', headers: { origin: SHOP } });
    assertError(unauthorized, 'unauthorized');
    assertCorsFor(unauthorized, SHOP);
  });

  it('management endpoints keep their behaviour: no CORS headers, Cache-Control no-store, and a preflight is 404', async () => {
    for (const url of ['/v1/blog/posts', `/v1/blog/posts/${f.published.older}`, '/v1/blog/categories', '/v1/me']) {
      const res = await get(suite, url, f.admin, { origin: SHOP });
      assert.equal(res.statusCode, 200, url);
      assertNoCors(res);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers.vary, undefined, url);
      const preflight = await suite.t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: SHOP, 'access-control-request-method': 'GET' },
      });
      assertError(preflight, 'not_found');
      assertNoCors(preflight);
    }
  });
});

describeTenantApp(
  'Content API: per-client-address limit of a read_published key (memory backend)',
  { tenant: false, env: { CONTENT_ADDRESS_READS_PER_MINUTE: '2', TRUST_PROXY: '1' } },
  (suite) => addressLimitCases(suite),
);

describeTenantApp(
  'Content API: per-client-address limit of a read_published key (Redis backend)',
  {
    tenant: false,
    skip: await redisSkip(),
    env: {
      CONTENT_ADDRESS_READS_PER_MINUTE: '2',
      TRUST_PROXY: '1',
      REDIS_URL: TEST_REDIS_URL,
      // Counters of this run only (they expire within a minute).
      REDIS_PREFIX: `content-test-${randomLowerAlnum(8)}:`,
    },
  },
  (suite) => addressLimitCases(suite),
);

/** Why the Redis suite is skipped (REQUIRE_REDIS=1 makes it a failure); a busy machine gets 5 s to answer. */
async function redisSkip(): Promise<string | undefined> {
  if (await redisReachable(TEST_REDIS_URL, 5_000)) return undefined;
  const reason = `Redis not reachable at ${TEST_REDIS_URL}`;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but ${reason}`);
  return reason;
}

function addressLimitCases(suite: TenantSuite): void {
  it('a read_published key answers CONTENT_ADDRESS_READS_PER_MINUTE requests a minute per client address, then 429 rate_limited', async () => {
    const store = await suite.t.createStore({ changes: { allowed_origins: SHOP } });
    const key = await suite.t.issueKey(store, ['read_published'], { readPerMinute: 5 });
    const from = (address: string) =>
      suite.t.app.inject({
        method: 'GET',
        url: '/v1/content/posts',
        // TRUST_PROXY=1: the one balancer in front names the client in X-Forwarded-For.
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': address, origin: SHOP },
        remoteAddress: '10.0.0.1',
      });
    const first = await from('198.51.100.7');
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '2');
    assert.equal(first.headers['x-ratelimit-remaining'], '1');
    assert.equal((await from('198.51.100.7')).statusCode, 200);
    const refused = await from('198.51.100.7');
    assertError(refused, 'rate_limited');
    assert.equal(refused.headers['x-ratelimit-limit'], '2');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.match(String(refused.headers['x-ratelimit-reset']), /^\d{10}$/);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assertCorsFor(refused, SHOP);
    // Another address has its own allowance; the key's own (5) is now the tighter one.
    const other = await from('203.0.113.9');
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['x-ratelimit-limit'], '5');
    assert.equal(other.headers['x-ratelimit-remaining'], '1');
    assert.equal((await from('203.0.113.10')).statusCode, 200);
    assertError(await from('203.0.113.11'), 'rate_limited');
    // A management key is not limited per address.
    const reader = await suite.t.issueKey(store, ['read_blog'], { readPerMinute: 50 });
    for (let i = 0; i < 4; i++) {
      const res = await suite.t.app.inject({
        method: 'GET',
        url: '/v1/content/posts',
        headers: { authorization: `Bearer ${reader}`, 'x-forwarded-for': '198.51.100.7' },
        remoteAddress: '10.0.0.1',
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '50');
    }
    // The next minute, the address is admitted again.
    suite.t.clock.advance(61_000);
    if (suite.t.ctx.traffic.backend === 'redis') return;
    assert.equal((await from('198.51.100.7')).statusCode, 200);
  });
}
