import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('identity, scopes and store gates', { tenant: false }, (suite) => {
  it('GET /v1/me reports every member of the identity object with the documented defaults', async () => {
    const store = await suite.t.createStore();
    const key = await suite.t.issueKey(store, ['write_blog', 'read_audit'], { application: 'sync-bot' });
    const res = await suite.t.request({ method: 'GET', url: '/v1/me', key });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      api_version: '2026-09-14',
      key_id: key.slice(9, 17),
      application: 'sync-bot',
      store: { handle: store.handle, name: 'Test Store' },
      scopes: ['read_published', 'read_blog', 'write_blog', 'read_audit'],
      key_expires_at: '2027-09-15T10:00:00+08:00',
      features: { blog_categories: true, media_upload: true, webhooks: true },
      limits: {
        title_allows_emoji: true,
        title_max_length: 200,
        body_max_bytes: 1048576,
        image_formats: ['jpeg', 'png', 'gif', 'webp'],
        image_max_bytes: 10485760,
        image_max_pixels: 40000000,
        image_max_gif_frames: 200,
        image_max_total_pixels: 100000000,
        image_max_width: 2048,
        category_max_depth: 3,
      },
      quotas: {
        posts_per_day: { limit: 200, used: 0, remaining: 200, resets_at: '2026-09-16T00:00:00+08:00' },
        images_per_day: { limit: 500, used: 0, remaining: 500, resets_at: '2026-09-16T00:00:00+08:00' },
      },
      rate_limits: { read_per_minute: 600, write_per_minute: 120, concurrency: 8 },
    });
    assert.equal(res.headers['x-ratelimit-limit'], '600');
    assert.equal(res.headers['x-ratelimit-remaining'], '599');
    assert.match(String(res.headers['x-ratelimit-reset']), /^\d{10}$/);
  });

  it('reflects operator changes to features, limits and the key’s own allowances', async () => {
    const store = await suite.t.createStore({ categories: false, media: false, emoji: false });
    await suite.t.ctx.stores.update(store.handle, { posts_per_day: 5, body_max_bytes: 2048 });
    const key = await suite.t.issueKey(store, ['read_blog'], { readPerMinute: 30, writePerMinute: 10, concurrency: 2 });
    const body = (await suite.t.request({ method: 'GET', url: '/v1/me', key })).json();
    assert.deepEqual(body.features, { blog_categories: false, media_upload: false, webhooks: true });
    assert.equal(body.limits.title_allows_emoji, false);
    assert.equal(body.limits.body_max_bytes, 2048);
    assert.equal(body.quotas.posts_per_day.limit, 5);
    assert.deepEqual(body.rate_limits, { read_per_minute: 30, write_per_minute: 10, concurrency: 2 });
  });

  it('answers 403 insufficient_scope naming the missing scope (after a valid key, before anything else)', async () => {
    const store = await suite.t.createStore({ certified: false });
    const key = await suite.t.issueKey(store, ['read_blog', 'publish_blog']);
    const res = await suite.t.request({ method: 'GET', url: '/v1/audit/events?limit=999', key });
    assertError(res, 'insufficient_scope', [{ field: 'scope', issue: 'required: read_audit' }]);
    assert.equal(res.headers['x-ratelimit-limit'], '600', 'authenticated responses carry rate headers');
  });

  it('blocks reads and writes of an uncertified store with 503, but /v1/me and /v1/openapi.json answer', async () => {
    const store = await suite.t.createStore({ certified: false });
    const key = await suite.t.issueKey(store);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/audit/events', key }), 'tenant_not_certified');
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/me', key })).statusCode, 200);
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/openapi.json', key })).statusCode, 200);
    await suite.t.ctx.stores.update(store.handle, { certified: 1 });
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/audit/events', key })).statusCode, 200);
  });

  it('keeps reads going while writes are paused', async () => {
    const store = await suite.t.createStore({ changes: { writes_paused: 1 } });
    const key = await suite.t.issueKey(store);
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/audit/events', key })).statusCode, 200);
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/me', key })).statusCode, 200);
  });

  it('needs a valid key for the OpenAPI description', async () => {
    assertError(await suite.t.request({ method: 'GET', url: '/v1/openapi.json' }), 'unauthorized');
  });
});
