// Every states-and-transitions case of docs/api-behaviour.md ("Posts"), with an injected clock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { START_TIME } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('post lifecycle', (suite) => {
  const get = async (id: number) =>
    (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key: suite.key })).json();

  it('creates a draft: 201, Location, every field of the post object', async () => {
    suite.t.clock.set(START_TIME);
    const res = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key: suite.key,
      headers: { 'idempotency-key': 'create-1' },
      body: { title: '  Hello world  ', body_html: '<p>Hi <strong>there</strong></p>', summary: 'Short' },
    });
    assert.equal(res.statusCode, 201);
    const post = res.json();
    assert.equal(res.headers.location, `/v1/blog/posts/${post.id}`);
    assert.deepEqual(post, {
      id: post.id,
      title: 'Hello world',
      summary: 'Short',
      body_html: '<p>Hi <strong>there</strong></p>',
      cover_image: null,
      status: 'draft',
      published_at: null,
      category_ids: [],
      default_category_id: null,
      view_count: 0,
      public_url: null,
      created_at: '2026-09-15T10:00:00+08:00',
      updated_at: '2026-09-15T10:00:00+08:00',
      warnings: [],
    });
    assert.deepEqual(await get(post.id), post);
  });

  // Create answers with the post as inserted, without reading it back: every field must be
  // what the database holds, categories given out of order, cover, warnings and all.
  it('a created post reads back as created, with categories, cover image, summary and warnings', async () => {
    suite.t.clock.set(START_TIME);
    const shop = await suite.t.tenant({ categories: true, media: true });
    const category = async (name: string) => {
      const res = await suite.t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key: shop.key,
        headers: { 'idempotency-key': `cat-${name}` },
        body: { name },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as number;
    };
    const [first, second, third] = [await category('First'), await category('Second'), await category('Third')];
    const basename = 'abcdefghijklmnopqrstuvwx.jpg';
    await suite.t.ctx.db
      .insertInto('images')
      .values({
        id: 'img_readback',
        store_id: shop.store.id,
        basename,
        sha256: 'f'.repeat(64),
        content_type: 'image/jpeg',
        width: 8,
        height: 6,
        bytes: 100,
        created_at: Date.parse(START_TIME),
        deleted_at: null,
      })
      .execute();
    const res = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key: shop.key,
      headers: { 'idempotency-key': 'read-back-1' },
      body: {
        title: ' Read back ',
        summary: 'As stored',
        body_html: '<p onclick="x()">Body</p><script>alert(1)</script>',
        category_ids: [third, first, second],
        default_category_id: second,
        cover_image_url: `http://blog.test/media/${shop.store.handle}/${basename}`,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(
      created.category_ids,
      [first, second, third].sort((a, b) => a - b),
    );
    assert.deepEqual(created.cover_image, {
      path: `/media/${shop.store.handle}/${basename}`,
      url: `http://blog.test/media/${shop.store.handle}/${basename}`,
    });
    assert.ok(created.warnings.length > 0);
    const read = await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${created.id}`, key: shop.key });
    assert.deepEqual(read.json(), created);
  });

  it('draft → publish with no time → published now with public_url', async () => {
    const post = await createPost(suite.t, suite.key);
    const res = await publish(suite.t, suite.key, post.id);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.status, 'published');
    assert.equal(body.published_at, '2026-09-15T10:00:00+08:00');
    assert.equal(body.public_url, `http://blog.test/s/${suite.store.handle}/blog/posts/${post.id}`);
  });

  it('draft → publish with a past time → published, back-dated', async () => {
    const post = await createPost(suite.t, suite.key);
    const body = (await publish(suite.t, suite.key, post.id, '2026-01-02T03:04:05+08:00')).json();
    assert.equal(body.status, 'published');
    assert.equal(body.published_at, '2026-01-02T03:04:05+08:00');
  });

  it('draft → publish with a future time → scheduled, public_url null; published the moment the time passes', async () => {
    const post = await createPost(suite.t, suite.key);
    const body = (await publish(suite.t, suite.key, post.id, '2026-09-15T12:00:00+08:00')).json();
    assert.equal(body.status, 'scheduled');
    assert.equal(body.published_at, '2026-09-15T12:00:00+08:00');
    assert.equal(body.public_url, null);
    suite.t.clock.set(Date.parse('2026-09-15T04:00:00Z') - 1000);
    assert.equal((await get(post.id)).status, 'scheduled');
    suite.t.clock.set('2026-09-15T04:00:00Z');
    const later = await get(post.id);
    assert.equal(later.status, 'published');
    assert.equal(later.public_url, `http://blog.test/s/${suite.store.handle}/blog/posts/${post.id}`);
    const listed = (
      await suite.t.request({ method: 'GET', url: '/v1/blog/posts?status=published&limit=50', key: suite.key })
    ).json();
    assert.ok(
      listed.data.some((p: any) => p.id === post.id),
      'the list filter agrees',
    );
    suite.t.clock.set(START_TIME);
  });

  it('scheduled → publish with a new future time stays scheduled; with no time or a past time → published', async () => {
    const a = await createPost(suite.t, suite.key);
    await publish(suite.t, suite.key, a.id, '2026-09-20T00:00:00+08:00');
    const moved = (await publish(suite.t, suite.key, a.id, '2026-09-21T00:00:00+08:00')).json();
    assert.deepEqual([moved.status, moved.published_at], ['scheduled', '2026-09-21T00:00:00+08:00']);
    const now = (await publish(suite.t, suite.key, a.id)).json();
    assert.deepEqual([now.status, now.published_at], ['published', '2026-09-15T10:00:00+08:00']);
    const b = await createPost(suite.t, suite.key);
    await publish(suite.t, suite.key, b.id, '2026-09-20T00:00:00+08:00');
    const past = (await publish(suite.t, suite.key, b.id, '2026-09-01T00:00:00Z')).json();
    assert.deepEqual([past.status, past.published_at], ['published', '2026-09-01T08:00:00+08:00']);
  });

  it('published → publish with a future time → scheduled again; with no time it keeps its time', async () => {
    const post = await createPost(suite.t, suite.key);
    await publish(suite.t, suite.key, post.id, '2026-09-10T00:00:00+08:00');
    const same = (await publish(suite.t, suite.key, post.id)).json();
    assert.deepEqual([same.status, same.published_at], ['published', '2026-09-10T00:00:00+08:00']);
    const back = (await publish(suite.t, suite.key, post.id, '2026-10-01T00:00:00+08:00')).json();
    assert.deepEqual(
      [back.status, back.published_at, back.public_url],
      ['scheduled', '2026-10-01T00:00:00+08:00', null],
    );
  });

  it('published or scheduled → unpublish → draft with published_at cleared; a draft is returned unchanged', async () => {
    const p = await createPost(suite.t, suite.key);
    await publish(suite.t, suite.key, p.id);
    const s = await createPost(suite.t, suite.key);
    await publish(suite.t, suite.key, s.id, '2026-12-01T00:00:00+08:00');
    for (const id of [p.id, s.id]) {
      const res = await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${id}/unpublish`, key: suite.key });
      assert.equal(res.statusCode, 200);
      assert.deepEqual([res.json().status, res.json().published_at, res.json().public_url], ['draft', null, null]);
    }
    const d = await createPost(suite.t, suite.key);
    suite.t.clock.advance(60_000);
    const res = await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${d.id}/unpublish`, key: suite.key });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), d, 'unchanged, updated_at included');
    const events = (
      await suite.t.request({ method: 'GET', url: `/v1/audit/events?resource_id=${d.id}`, key: suite.key })
    ).json().data;
    assert.deepEqual(
      events.map((e: any) => e.action),
      ['post.created'],
      'no event for a no-op unpublish',
    );
    suite.t.clock.set(START_TIME);
  });

  it('publish needs an offset on published_at and refuses unknown fields', async () => {
    const post = await createPost(suite.t, suite.key);
    for (const bad of ['2026-09-20T10:00:00', '2026-09-20', 'tomorrow']) {
      assertError(await publish(suite.t, suite.key, post.id, bad), 'validation_failed', [
        { field: 'published_at', issue: /time-zone offset/ },
      ]);
    }
    assertError(
      await suite.t.request({
        method: 'POST',
        url: `/v1/blog/posts/${post.id}/publish`,
        key: suite.key,
        body: { when: 'now' },
      }),
      'validation_failed',
      [{ field: 'when', issue: 'is not a recognised field' }],
    );
    assert.equal((await publish(suite.t, suite.key, post.id, null)).json().status, 'published', 'null means now');
  });

  it('publish refuses a date that is not on the calendar (February 30, hour 24), and the post stays a draft', async () => {
    const post = await createPost(suite.t, suite.key);
    for (const bad of ['2026-02-30T10:00:00+08:00', '2025-02-29T10:00:00+08:00', '2026-09-20T24:00:00+08:00']) {
      assertError(await publish(suite.t, suite.key, post.id, bad), 'validation_failed', [
        { field: 'published_at', issue: /time-zone offset/ },
      ]);
    }
    const after = await get(post.id);
    assert.deepEqual([after.status, after.published_at, after.updated_at], ['draft', null, post.updated_at]);
  });

  it('publish and unpublish need publish_blog: a write_blog key gets 403', async () => {
    const writer = await suite.t.issueKey(suite.store, ['write_blog']);
    const post = await createPost(suite.t, writer);
    for (const action of ['publish', 'unpublish']) {
      assertError(
        await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${post.id}/${action}`, key: writer }),
        'insufficient_scope',
        [{ field: 'scope', issue: 'required: publish_blog' }],
      );
    }
    assert.equal((await get(post.id)).status, 'draft');
  });

  it('records one audit event per successful write with the fields written', async () => {
    const post = await createPost(suite.t, suite.key, { summary: 's' });
    await suite.t.request({
      method: 'PATCH',
      url: `/v1/blog/posts/${post.id}`,
      key: suite.key,
      body: { title: 'New title' },
    });
    await publish(suite.t, suite.key, post.id, '2027-01-01T00:00:00+08:00');
    await publish(suite.t, suite.key, post.id);
    await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${post.id}/unpublish`, key: suite.key });
    const events = (
      await suite.t.request({
        method: 'GET',
        url: `/v1/audit/events?resource_type=post&resource_id=${post.id}`,
        key: suite.key,
      })
    ).json().data;
    assert.deepEqual(
      events.map((e: any) => [e.action, e.changes]),
      [
        ['post.unpublished', ['published_at']],
        ['post.published', ['published_at']],
        ['post.scheduled', ['published_at']],
        ['post.updated', ['title']],
        ['post.created', ['body_html', 'summary', 'title']],
      ],
    );
    assert.equal(events[0].key_id, suite.key.slice(9, 17));
    assert.equal(events[0].application, 'test-app');
    assert.equal(typeof events[0].request_id, 'string');
  });

  describe('two-step delete', () => {
    const del = (id: number, k: string, token?: string) =>
      suite.t.request({
        method: 'DELETE',
        url: `/v1/blog/posts/${id}`,
        key: k,
        ...(token === undefined ? {} : { body: { confirmation_token: token } }),
      });
    const firstStep = async (id: number, k = suite.key) => {
      const res = await del(id, k);
      const err = assertError(res, 'confirmation_required', [
        { field: 'confirmation_token', issue: /^[A-Za-z0-9_-]{20,}$/ },
        { field: 'expires_in_seconds', issue: '300' },
        { field: 'post.title', issue: /.+/ },
        { field: 'post.status', issue: 'draft' },
      ]);
      return err.details[0].issue as string;
    };

    it('first call 409 with a token, second 204 with no body, then 404', async () => {
      const post = await createPost(suite.t, suite.key, { title: 'To be deleted' });
      const res = await del(post.id, suite.key);
      const err = assertError(res, 'confirmation_required', [
        { field: 'confirmation_token', issue: /.+/ },
        { field: 'expires_in_seconds', issue: '300' },
        { field: 'post.title', issue: 'To be deleted' },
        { field: 'post.status', issue: 'draft' },
      ]);
      const done = await del(post.id, suite.key, err.details[0].issue);
      assert.equal(done.statusCode, 204);
      assert.equal(done.body, '');
      assertError(
        await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key: suite.key }),
        'not_found',
      );
      assertError(await del(post.id, suite.key), 'not_found');
      const events = (
        await suite.t.request({
          method: 'GET',
          url: `/v1/audit/events?action=post.deleted&resource_id=${post.id}`,
          key: suite.key,
        })
      ).json().data;
      assert.equal(events.length, 1);
    });

    it('a token expires after 5 minutes and is bound to the post and the key', async () => {
      const post = await createPost(suite.t, suite.key);
      const other = await createPost(suite.t, suite.key);
      const token = await firstStep(post.id);
      const secondKey = await suite.t.issueKey(suite.store, ['write_blog']);
      const invalid = [{ field: 'confirmation_token', issue: /invalid, expired/ }];
      assertError(await del(other.id, suite.key, token), 'validation_failed', invalid);
      assertError(await del(post.id, secondKey, token), 'validation_failed', invalid);
      suite.t.clock.advance(300_000);
      assertError(await del(post.id, suite.key, token), 'validation_failed', invalid);
      suite.t.clock.set(START_TIME);
      const fresh = await firstStep(post.id);
      suite.t.clock.advance(299_000);
      assert.equal((await del(post.id, suite.key, fresh)).statusCode, 204);
      suite.t.clock.set(START_TIME);
    });

    it('refuses published and scheduled posts with post_is_published (before and after the token)', async () => {
      const p = await createPost(suite.t, suite.key);
      const token = await firstStep(p.id);
      await publish(suite.t, suite.key, p.id);
      assertError(await del(p.id, suite.key), 'post_is_published', [{ field: 'post.status', issue: 'published' }]);
      assertError(await del(p.id, suite.key, token), 'post_is_published', [
        { field: 'post.status', issue: 'published' },
      ]);
      const s = await createPost(suite.t, suite.key);
      await publish(suite.t, suite.key, s.id, '2027-01-01T00:00:00+08:00');
      assertError(await del(s.id, suite.key), 'post_is_published', [{ field: 'post.status', issue: 'scheduled' }]);
      assert.equal((await get(s.id)).status, 'scheduled');
    });

    it('refuses posts still linked to products until the back office removes the links', async () => {
      const post = await createPost(suite.t, suite.key);
      await suite.t.ctx.db
        .insertInto('post_product_links')
        .values({ store_id: suite.store.id, post_id: post.id, product_id: 'sku-1', created_at: 0 })
        .execute();
      assertError(await del(post.id, suite.key), 'post_has_product_links', [
        { field: 'post_id', issue: String(post.id) },
      ]);
      await suite.t.ctx.db.deleteFrom('post_product_links').where('post_id', '=', post.id).execute();
      const token = await firstStep(post.id);
      assert.equal((await del(post.id, suite.key, token)).statusCode, 204);
    });

    it('another store’s post is 404 for every post endpoint', async () => {
      const post = await createPost(suite.t, suite.key);
      const other = await suite.t.tenant();
      const k = other.key;
      for (const req of [
        { method: 'GET' as const, url: `/v1/blog/posts/${post.id}` },
        { method: 'PATCH' as const, url: `/v1/blog/posts/${post.id}`, body: { title: 'x' } },
        { method: 'POST' as const, url: `/v1/blog/posts/${post.id}/publish` },
        { method: 'POST' as const, url: `/v1/blog/posts/${post.id}/unpublish` },
        { method: 'DELETE' as const, url: `/v1/blog/posts/${post.id}` },
      ]) {
        assertError(await suite.t.request({ ...req, key: k }), 'not_found');
      }
      assert.equal((await get(post.id)).title, post.title);
    });
  });
});
