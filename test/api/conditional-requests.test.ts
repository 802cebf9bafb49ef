// Conditional requests on posts: ETag on every answer that carries one post, If-None-Match →
// 304 on GET, If-Match → 412 precondition_failed on PATCH, publish, unpublish and DELETE, with
// nothing written on a mismatch, checked inside the writing transaction.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { START_TIME } from '../helpers/test-app.js';
import { assertCommonHeaders, assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const STALE = [{ field: 'If-Match', issue: /changed since you read it/ }];
const STRONG_ETAG = /^"[A-Za-z0-9_-]{27}"$/;

describeTenantApp('conditional requests', (suite) => {
  const get = (id: number, headers: Record<string, string> = {}) =>
    suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key: suite.key, headers });
  const patch = (id: number, body: unknown, headers: Record<string, string> = {}) =>
    suite.t.request({ method: 'PATCH', url: `/v1/blog/posts/${id}`, key: suite.key, body, headers });
  const auditCount = async () =>
    (await suite.t.request({ method: 'GET', url: '/v1/audit/events?limit=50', key: suite.key })).json().data
      .length as number;

  it('create, GET, PATCH, publish and unpublish carry the same strong ETag a GET then shows; a replayed create carries it too', async () => {
    suite.t.clock.set(START_TIME);
    const body = { title: 'Autumn tea guide', body_html: '<p>Oolong first.</p>' };
    const created = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key: suite.key,
      headers: { 'idempotency-key': 'etag-create' },
      body,
    });
    assert.equal(created.statusCode, 201);
    const etag = String(created.headers.etag);
    assert.match(etag, STRONG_ETAG);
    const id = created.json().id;
    assert.equal((await get(id)).headers.etag, etag);

    const replay = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key: suite.key,
      headers: { 'idempotency-key': 'etag-create' },
      body,
    });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.headers.etag, etag);

    const seen = new Set([etag]);
    const calls = [
      () => patch(id, { title: 'Autumn tea guide, revised' }),
      () => publish(suite.t, suite.key, id),
      () => suite.t.request({ method: 'POST', url: `/v1/blog/posts/${id}/unpublish`, key: suite.key }),
    ];
    for (const call of calls) {
      // A change in another second: unpublishing returns the post to exactly what it showed
      // after the edit, which within the same second (updated_at has whole seconds) is the same
      // representation and so the same ETag (docs/api-behaviour.md).
      suite.t.clock.advance(1000);
      const res = await call();
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers.etag), STRONG_ETAG);
      assert.equal(res.headers.etag, (await get(id)).headers.etag, 'the answer’s ETag is the post’s');
      seen.add(String(res.headers.etag));
    }
    assert.equal(seen.size, 4, 'every change gives a new ETag');
  });

  it('If-None-Match on GET: 304 without a body while unchanged (weak, lists and * too), 200 once the post changes', async () => {
    suite.t.clock.set(START_TIME);
    const post = await createPost(suite.t, suite.key);
    const etag = String((await get(post.id)).headers.etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(post.id, { 'if-none-match': header });
      assert.equal(res.statusCode, 304, header);
      assert.equal(res.body, '');
      assert.equal(res.headers.etag, etag);
      assert.equal(typeof res.headers['x-request-id'], 'string');
    }
    const other = await get(post.id, { 'if-none-match': '"something-else"' });
    assert.equal(other.statusCode, 200);
    assert.deepEqual(other.json(), post);
    assertCommonHeaders(other);

    assert.equal((await patch(post.id, { summary: 'Now with a summary' })).statusCode, 200);
    const changed = await get(post.id, { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.json().summary, 'Now with a summary');
    assert.notEqual(changed.headers.etag, etag);
  });

  it('the ETag follows the clock (a scheduled post turning published) but not the view count', async () => {
    suite.t.clock.set(START_TIME);
    const post = await createPost(suite.t, suite.key);
    assert.equal((await publish(suite.t, suite.key, post.id, '2026-09-15T11:00:00+08:00')).json().status, 'scheduled');
    const scheduled = String((await get(post.id)).headers.etag);
    suite.t.clock.advance(3600_000);
    const now = await get(post.id, { 'if-none-match': scheduled });
    assert.equal(now.statusCode, 200);
    assert.equal(now.json().status, 'published');
    const published = String(now.headers.etag);

    // A view as the page's beacon reports it.
    const beacon = await suite.t.app.inject({
      method: 'POST',
      url: `/s/${suite.store.handle}/blog/posts/${post.id}/views`,
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' },
    });
    assert.equal(beacon.statusCode, 204);
    await suite.t.ctx.storefront.views.flush();
    const viewed = await get(post.id, { 'if-none-match': published });
    assert.equal(viewed.statusCode, 304, 'a view does not change the ETag');
    assert.equal((await get(post.id)).json().view_count, 1);
    assert.equal((await patch(post.id, { summary: 'Edited after a view' }, { 'if-match': published })).statusCode, 200);
  });

  it('PATCH with a stale If-Match: 412 precondition_failed and nothing written; with the current one it goes ahead', async () => {
    suite.t.clock.set(START_TIME);
    const post = await createPost(suite.t, suite.key, { title: 'Original title' });
    const stale = String((await get(post.id)).headers.etag);
    const first = await patch(post.id, { title: 'Edited by someone else' }, { 'if-match': stale });
    assert.equal(first.statusCode, 200);
    const current = String(first.headers.etag);

    const events = await auditCount();
    for (const header of [stale, `W/${current}`, '"nope"']) {
      assertError(
        await patch(post.id, { title: 'My late edit' }, { 'if-match': header }),
        'precondition_failed',
        STALE,
      );
    }
    assert.equal(await auditCount(), events, 'no audit event for a refused write');
    const unchanged = await get(post.id);
    assert.equal(unchanged.json().title, 'Edited by someone else');
    assert.equal(unchanged.headers.etag, current);

    let etag = current;
    for (const header of [(e: string) => e, (e: string) => `"nope", ${e}`, () => '*']) {
      const res = await patch(post.id, { summary: `Matched by ${header(etag)}` }, { 'if-match': header(etag) });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().summary, `Matched by ${header(etag)}`);
      etag = String(res.headers.etag);
    }
  });

  it('publish and unpublish with a stale If-Match: 412 and the status unchanged, even when the call would change nothing', async () => {
    suite.t.clock.set(START_TIME);
    const post = await createPost(suite.t, suite.key);
    const draft = String((await get(post.id)).headers.etag);
    assert.equal((await patch(post.id, { summary: 'changed' })).statusCode, 200);
    const events = await auditCount();
    assertError(
      await suite.t.request({
        method: 'POST',
        url: `/v1/blog/posts/${post.id}/publish`,
        key: suite.key,
        headers: { 'if-match': draft },
      }),
      'precondition_failed',
      STALE,
    );
    assertError(
      await suite.t.request({
        method: 'POST',
        url: `/v1/blog/posts/${post.id}/unpublish`,
        key: suite.key,
        headers: { 'if-match': draft },
      }),
      'precondition_failed',
      STALE,
    );
    assert.equal((await get(post.id)).json().status, 'draft');
    assert.equal(await auditCount(), events);

    const current = String((await get(post.id)).headers.etag);
    const published = await suite.t.request({
      method: 'POST',
      url: `/v1/blog/posts/${post.id}/publish`,
      key: suite.key,
      headers: { 'if-match': current },
    });
    assert.equal(published.statusCode, 200);
    assert.equal(published.json().status, 'published');
    assertError(
      await suite.t.request({
        method: 'POST',
        url: `/v1/blog/posts/${post.id}/unpublish`,
        key: suite.key,
        headers: { 'if-match': current },
      }),
      'precondition_failed',
      STALE,
    );
    assert.equal((await get(post.id)).json().status, 'published');
    const back = await suite.t.request({
      method: 'POST',
      url: `/v1/blog/posts/${post.id}/unpublish`,
      key: suite.key,
      headers: { 'if-match': String(published.headers.etag) },
    });
    assert.equal(back.statusCode, 200);
    assert.equal(back.json().status, 'draft');
  });

  it('DELETE: a stale If-Match on the second call is 412, the post and its token stay; the current one deletes', async () => {
    suite.t.clock.set(START_TIME);
    const post = await createPost(suite.t, suite.key);
    const stale = String((await get(post.id)).headers.etag);
    const confirm = await suite.t.request({
      method: 'DELETE',
      url: `/v1/blog/posts/${post.id}`,
      key: suite.key,
      headers: { 'if-match': stale },
    });
    const token = assertError(confirm, 'confirmation_required', [
      { field: 'confirmation_token', issue: /.+/ },
      { field: 'expires_in_seconds', issue: '300' },
      { field: 'post.title', issue: post.title },
      { field: 'post.status', issue: 'draft' },
    ]).details[0].issue;
    const edited = await patch(post.id, { summary: 'edited between the two calls' });
    const del = (ifMatch: string) =>
      suite.t.request({
        method: 'DELETE',
        url: `/v1/blog/posts/${post.id}`,
        key: suite.key,
        body: { confirmation_token: token },
        headers: { 'if-match': ifMatch },
      });
    assertError(await del(stale), 'precondition_failed', STALE);
    assert.equal((await get(post.id)).statusCode, 200);
    const gone = await del(String(edited.headers.etag));
    assert.equal(gone.statusCode, 204, gone.body);
    assert.equal((await get(post.id)).statusCode, 404);
  });

  it('precedence: validation (422) and not_found (404) come before 412; 412 comes before the business rules', async () => {
    suite.t.clock.set(START_TIME);
    const post = await createPost(suite.t, suite.key);
    const stale = String((await get(post.id)).headers.etag);
    await patch(post.id, { summary: 'moved on' });
    assertError(await patch(post.id, { title: 42 }, { 'if-match': stale }), 'validation_failed', [
      { field: 'title', issue: /string/ },
    ]);
    assertError(await patch(999_999, { title: 'x' }, { 'if-match': stale }), 'not_found');
    const other = await createPost(suite.t, suite.key, { title: 'Taken title', body_html: '<p>Taken body</p>' });
    assert.ok(other.id);
    // Without the header this is duplicate_content; a stale client hears 412 first.
    assertError(
      await patch(post.id, { title: 'Taken title', body_html: '<p>Taken body</p>' }, { 'if-match': stale }),
      'precondition_failed',
      STALE,
    );
    assertError(await patch(post.id, { title: 'Taken title', body_html: '<p>Taken body</p>' }), 'duplicate_content', [
      { field: 'post_id', issue: String(other.id) },
    ]);
  });

  it('two writes racing with the same If-Match: exactly one is written, the other is 412 (checked inside the transaction)', async () => {
    suite.t.clock.set(START_TIME);
    const post = await createPost(suite.t, suite.key);
    const etag = String((await get(post.id)).headers.etag);
    const answers = await Promise.all(
      ['First writer', 'Second writer', 'Third writer'].map((title) => patch(post.id, { title }, { 'if-match': etag })),
    );
    const ok = answers.filter((r) => r.statusCode === 200);
    assert.equal(ok.length, 1, answers.map((r) => r.statusCode).join(','));
    for (const res of answers.filter((r) => r.statusCode !== 200)) assertError(res, 'precondition_failed', STALE);
    assert.equal((await get(post.id)).json().title, ok[0].json().title);
  });
});
