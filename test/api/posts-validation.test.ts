// Create/update validation: unknown and read-only fields, PATCH rules, title, body size,
// categories, cover, framework errors mapped to API error codes, store gates on writes.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('post validation', (suite) => {
  let n = 0;
  const create = (body: unknown, headers: Record<string, string> = { 'idempotency-key': `v-${++n}` }, k = suite.key) =>
    suite.t.request({ method: 'POST', url: '/v1/blog/posts', key: k, headers, body });
  const patch = (id: number, body: unknown) =>
    suite.t.request({ method: 'PATCH', url: `/v1/blog/posts/${id}`, key: suite.key, body });
  const countPosts = async () =>
    Number(
      (
        await suite.t.ctx.db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('store_id', '=', suite.store.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses status and published_at in create and update bodies, naming the way to change them', async () => {
    const before = await countPosts();
    assertError(
      await create({ title: 'a', body_html: 'b', status: 'published', published_at: '2026-09-15T10:00:00+08:00' }),
      'validation_failed',
      [
        { field: 'status', issue: 'is read-only: change it with POST /v1/blog/posts/{id}/publish or /unpublish' },
        { field: 'published_at', issue: 'is read-only here: set it with POST /v1/blog/posts/{id}/publish' },
      ],
    );
    const post = await createPost(suite.t, suite.key);
    assertError(await patch(post.id, { status: 'draft' }), 'validation_failed', [
      { field: 'status', issue: /read-only/ },
    ]);
    assert.equal(await countPosts(), before + 1);
  });

  it('names every unknown, missing and mistyped field', async () => {
    assertError(await create({ title: 5, colour: 'red', category_ids: [0, 2, 2] }), 'validation_failed', [
      { field: 'body_html', issue: 'is required' },
      { field: 'colour', issue: 'is not a recognised field' },
      { field: 'title', issue: 'must be string' },
      { field: 'category_ids[0]', issue: 'must be >= 1' },
      { field: 'category_ids', issue: 'must not contain duplicates' },
    ]);
    assertError(await create({ title: 'x', body_html: 'y', summary: 3 }), 'validation_failed', [
      { field: 'summary', issue: 'must be string or null' },
    ]);
  });

  it('maps malformed JSON, a wrong Content-Type and a missing body to 422 in the envelope', async () => {
    const headers = { 'idempotency-key': 'raw-1' };
    assertError(
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key: suite.key,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"title": ',
      }),
      'validation_failed',
      [{ field: 'body', issue: 'is not valid JSON' }],
    );
    assertError(
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key: suite.key,
        headers: { ...headers, 'content-type': 'text/plain' },
        payload: 'hello',
      }),
      'validation_failed',
      [{ field: 'Content-Type', issue: 'must be application/json' }],
    );
    assertError(
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key: suite.key,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'a=b',
      }),
      'validation_failed',
      [{ field: 'Content-Type', issue: 'must be application/json' }],
    );
    assertError(
      await suite.t.request({ method: 'POST', url: '/v1/blog/posts', key: suite.key, headers }),
      'validation_failed',
      [{ field: 'body', issue: 'must be a JSON object' }],
    );
    assertError(
      await suite.t.request({ method: 'POST', url: '/v1/blog/posts', key: suite.key, headers, body: [1, 2] }),
      'validation_failed',
      [{ field: 'body', issue: 'must be a JSON object' }],
    );
    assertError(
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key: suite.key,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"__proto__": {"x": 1}, "title": "a", "body_html": "b"}',
      }),
      'validation_failed',
      [{ field: 'body', issue: 'is not valid JSON' }],
    );
  });

  it('requires a well-formed Idempotency-Key on create', async () => {
    assertError(await create({ title: 'a', body_html: 'b' }, {}), 'validation_failed', [
      { field: 'Idempotency-Key', issue: 'is required' },
    ]);
    assertError(
      await create({ title: 'a', body_html: 'b' }, { 'idempotency-key': 'x'.repeat(256) }),
      'validation_failed',
      [{ field: 'Idempotency-Key', issue: 'must be 1 to 255 printable ASCII characters' }],
    );
    assertError(await create({ title: 'a', body_html: 'b' }, { 'idempotency-key': 'caf\u00e9' }), 'validation_failed', [
      { field: 'Idempotency-Key', issue: 'must be 1 to 255 printable ASCII characters' },
    ]);
    assert.equal(
      (await create({ title: 'k255', body_html: 'b' }, { 'idempotency-key': '~'.repeat(255) })).statusCode,
      201,
    );
  });

  it('applies the PATCH rules: at least one field, which fields take null, category_ids replaces the set', async () => {
    // Created one after another so that ids ascend in this order.
    const created: Array<{ id: number }> = [];
    for (const name of ['A', 'B', 'C']) {
      const res = await suite.t.request({
        method: 'POST',
        url: '/v1/blog/categories',
        key: suite.key,
        headers: { 'idempotency-key': `cat-${name}-${n++}` },
        body: { name },
      });
      created.push(res.json());
    }
    const [c1, c2, c3] = created;
    const post = await createPost(suite.t, suite.key, {
      summary: 'S',
      category_ids: [c1.id, c2.id],
      default_category_id: c2.id,
    });
    assertError(await patch(post.id, {}), 'validation_failed', [
      { field: 'body', issue: 'must contain at least one field' },
    ]);
    for (const field of ['title', 'body_html', 'cover_image_url']) {
      assertError(await patch(post.id, { [field]: null }), 'validation_failed', [{ field, issue: 'must be string' }]);
    }
    let res = await patch(post.id, { category_ids: [c2.id, c3.id] });
    assert.deepEqual([res.json().category_ids, res.json().default_category_id], [[c2.id, c3.id], c2.id]);
    assertError(await patch(post.id, { category_ids: [c3.id] }), 'validation_failed', [
      { field: 'default_category_id', issue: 'must be one of category_ids' },
    ]);
    res = await patch(post.id, { summary: null, default_category_id: null, category_ids: [] });
    assert.deepEqual([res.json().summary, res.json().default_category_id, res.json().category_ids], [null, null, []]);
    await patch(post.id, { category_ids: [c1.id] });
    res = await patch(post.id, { category_ids: null });
    assert.deepEqual(res.json().category_ids, []);
    assert.equal(res.json().title, post.title, 'untouched fields stay');
  });

  it('validates default_category_id and unknown categories on create', async () => {
    assertError(
      await create({ title: 'd1', body_html: 'x', category_ids: [], default_category_id: 5 }),
      'validation_failed',
      [{ field: 'default_category_id', issue: 'must be one of category_ids' }],
    );
    assertError(await create({ title: 'd2', body_html: 'x', category_ids: [999999] }), 'validation_failed', [
      { field: 'category_ids[0]', issue: 'is not a category of this store' },
    ]);
  });

  it('takes only an empty category_ids when the store has categories off', async () => {
    const off = await suite.t.tenant({ categories: false });
    assertError(
      await create({ title: 'c', body_html: 'x', category_ids: [1] }, { 'idempotency-key': 'off-1' }, off.key),
      'validation_failed',
      [{ field: 'category_ids', issue: 'categories are not enabled for this store; send an empty array' }],
    );
    assert.equal(
      (await create({ title: 'c', body_html: 'x', category_ids: [] }, { 'idempotency-key': 'off-2' }, off.key))
        .statusCode,
      201,
    );
  });

  it('trims the title and enforces its length in characters', async () => {
    assertError(await create({ title: '   ', body_html: 'x' }), 'validation_failed', [
      { field: 'title', issue: 'must not be empty' },
    ]);
    assertError(await create({ title: 'é'.repeat(201), body_html: 'x' }), 'validation_failed', [
      { field: 'title', issue: 'must be at most 200 characters' },
    ]);
    const ok = await create({ title: ` ${'é'.repeat(200)} `, body_html: 'x' });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().title, 'é'.repeat(200));
    assertError(await create({ title: 'tab\there', body_html: 'x' }), 'validation_failed', [
      { field: 'title', issue: 'must not contain control characters' },
    ]);
  });

  it('answers title_charset_unsupported naming the characters when the store cannot hold emoji', async () => {
    const plain = await suite.t.createStore({ emoji: false });
    const k = await suite.t.issueKey(plain);
    const res = await create({ title: 'Sale 🎉 today 🎉 𠀋 ok', body_html: 'x' }, { 'idempotency-key': 'emoji-1' }, k);
    assertError(res, 'title_charset_unsupported', [
      { field: 'title', issue: 'unsupported characters: 🎉 (U+1F389), 𠀋 (U+2000B)' },
    ]);
    assert.equal(
      (await create({ title: '中文標題 — ok', body_html: 'x' }, { 'idempotency-key': 'emoji-2' }, k)).statusCode,
      201,
    );
    const post = (await create({ title: 'Emoji 🎉 fine here', body_html: 'y' })).json();
    assert.equal(post.title, 'Emoji 🎉 fine here');
    assertError(
      await suite.t.request({ method: 'PATCH', url: `/v1/blog/posts/${post.id}`, key: k, body: { title: 'x' } }),
      'not_found',
    );
  });

  it('answers 413 content_too_large above limits.body_max_bytes (UTF-8 bytes as sent)', async () => {
    const small = await suite.t.createStore({ changes: { body_max_bytes: 30 } });
    const k = await suite.t.issueKey(small);
    const exact = '<p>' + '中'.repeat(7) + '</p>'; // 3 + 21 + 4 = 28 bytes
    assert.equal(
      (await create({ title: 'fits', body_html: `${exact}ab` }, { 'idempotency-key': 'size-1' }, k)).statusCode,
      201,
    );
    assertError(
      await create({ title: 'too big', body_html: `${exact}abc` }, { 'idempotency-key': 'size-2' }, k),
      'content_too_large',
      [{ field: 'body_html', issue: 'is 31 bytes; the limit is 30' }],
    );
    const post = (await create({ title: 'p', body_html: 'ok' }, { 'idempotency-key': 'size-3' }, k)).json();
    assertError(
      await suite.t.request({
        method: 'PATCH',
        url: `/v1/blog/posts/${post.id}`,
        key: k,
        body: { body_html: 'x'.repeat(31) },
      }),
      'content_too_large',
      [{ field: 'body_html', issue: 'is 31 bytes; the limit is 30' }],
    );
  });

  it('answers 422 cover_image_not_owned for any url that is not this store’s live image', async () => {
    for (const url of [
      'https://elsewhere.example/a.jpg',
      `http://blog.test/media/${suite.store.handle}/nope.jpg`,
      'not a url',
    ]) {
      assertError(await create({ title: `c-${url}`, body_html: 'x', cover_image_url: url }), 'cover_image_not_owned', [
        { field: 'cover_image_url', issue: 'is not the url of a live image uploaded by this store' },
      ]);
    }
  });

  it('filters the body and reports what it removed in warnings, on create, get and update', async () => {
    const post = await createPost(suite.t, suite.key, {
      body_html: '<p onclick="x()">Hi<script>alert(1)</script></p>',
    });
    assert.equal(post.body_html, '<p>Hi</p>');
    assert.ok(post.warnings.length >= 2, JSON.stringify(post.warnings));
    assert.deepEqual(
      (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key: suite.key })).json().warnings,
      post.warnings,
    );
    const updated = (await patch(post.id, { body_html: '<p>Clean</p>' })).json();
    assert.deepEqual(updated.warnings, []);
    assertError(await patch(post.id, { body_html: '<b>'.repeat(600) }), 'validation_failed', [
      { field: 'body_html', issue: /deeper than/ },
    ]);
  });

  it('pauses writes with 503 tenant_schema_changed while reads go on', async () => {
    const post = await createPost(suite.t, suite.key);
    await suite.t.ctx.stores.update(suite.store.handle, { writes_paused: 1 });
    try {
      assertError(await create({ title: 'paused', body_html: 'x' }), 'tenant_schema_changed');
      assertError(await patch(post.id, { title: 'x' }), 'tenant_schema_changed');
      assertError(
        await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${post.id}/publish`, key: suite.key }),
        'tenant_schema_changed',
      );
      assert.equal(
        (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key: suite.key })).statusCode,
        200,
      );
    } finally {
      await suite.t.ctx.stores.update(suite.store.handle, { writes_paused: 0 });
    }
  });

  it('follows the error precedence: 401 > 403 > 503 > 422 > idempotency > 404 > business rules', async () => {
    const reader = await suite.t.issueKey(suite.store, ['read_blog']);
    const bad = { title: 5 };
    assertError(
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        headers: { 'content-type': 'application/json' },
        payload: '{bad',
      }),
      'unauthorized',
    );
    assertError(
      await suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key: reader,
        headers: { 'content-type': 'application/json' },
        payload: '{bad',
      }),
      'insufficient_scope',
      [{ field: 'scope', issue: 'required: write_blog' }],
    );
    const uncertified = await suite.t.createStore({ certified: false });
    assertError(await create(bad, {}, await suite.t.issueKey(uncertified)), 'tenant_not_certified');
    assertError(
      await suite.t.request({ method: 'PATCH', url: '/v1/blog/posts/99999999', key: suite.key, body: bad }),
      'validation_failed',
      [{ field: 'title', issue: 'must be string' }],
    );
    assertError(
      await suite.t.request({ method: 'PATCH', url: '/v1/blog/posts/abc', key: suite.key, body: { title: 'x' } }),
      'validation_failed',
      [{ field: 'id', issue: 'must be integer' }],
    );
    assertError(
      await suite.t.request({
        method: 'PATCH',
        url: '/v1/blog/posts/99999999',
        key: suite.key,
        body: { title: '🎉', body_html: 'x'.repeat(2_000_000) },
      }),
      'not_found',
    );
  });

  it('reads integers in the path and query string as decimal digits only: +1, 0x1, 1e0, 1.0 and " 1" are not the id 1', async () => {
    const post = await create({ title: 'Id one', body_html: '<p>one</p>' });
    assert.equal(post.statusCode, 201, post.body);
    const { id } = post.json();
    assert.equal(
      (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key: suite.key })).statusCode,
      200,
    );
    for (const spelling of [`+${id}`, `0x${id.toString(16)}`, `${id}e0`, `${id}.0`, `%20${id}`, `${id}%20`]) {
      assertError(
        await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${spelling}`, key: suite.key }),
        'validation_failed',
        [{ field: 'id', issue: 'must be integer' }],
      );
    }
    for (const limit of ['+5', '1e1', '5.0', '0x5']) {
      assertError(
        await suite.t.request({
          method: 'GET',
          url: `/v1/blog/posts?limit=${encodeURIComponent(limit)}`,
          key: suite.key,
        }),
        'validation_failed',
        [{ field: 'limit', issue: 'must be integer' }],
      );
    }
    assert.equal(
      (await suite.t.request({ method: 'GET', url: '/v1/blog/posts?limit=5', key: suite.key })).statusCode,
      200,
    );
  });
});
