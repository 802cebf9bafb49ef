// Text that is not valid Unicode (a lone UTF-16 surrogate in JSON, percent-escapes that are not
// UTF-8 in a query string) is refused by name before anything is stored, on every route.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const LONE = 'must be valid Unicode text (it contains a lone UTF-16 surrogate)';
const NOT_UTF8 = 'must be valid UTF-8 once percent-decoded';
const NUL = 'must not contain the NUL character (U+0000)';

describeTenantApp('invalid Unicode is refused by name', { tenant: false }, (suite) => {
  /** JSON text written by hand: JSON.stringify would escape the surrogate the same way, but this shows the bytes sent. */
  const send = (method: 'POST' | 'PATCH', url: string, key: string, json: string) =>
    suite.t.request({
      method,
      url,
      key,
      payload: json,
      headers: { 'content-type': 'application/json', 'idempotency-key': `u-${Math.random()}` },
    });

  it('refuses a lone surrogate in any string field of a post, and stores nothing', async () => {
    const { key } = await suite.t.tenant();
    assertError(
      await send('POST', '/v1/blog/posts', key, '{"title":"A \\ud800 title","body_html":"<p>x</p>"}'),
      'validation_failed',
      [{ field: 'title', issue: LONE }],
    );
    assertError(
      await send('POST', '/v1/blog/posts', key, '{"title":"Fine","body_html":"<p>\\udfff</p>","summary":"x\\udbff"}'),
      'validation_failed',
      [
        { field: 'body_html', issue: LONE },
        { field: 'summary', issue: LONE },
      ],
    );
    // Reported with the schema's own problems, all at once.
    assertError(await send('POST', '/v1/blog/posts', key, '{"title":"\\ud83c","body_html":7}'), 'validation_failed', [
      { field: 'body_html', issue: 'must be string' },
      { field: 'title', issue: LONE },
    ]);
    // A field name that is not text is named too (and is not a recognised field either).
    const err = assertError(
      await send('POST', '/v1/blog/posts', key, '{"title":"t","body_html":"<p>b</p>","\\ud800":1}'),
      'validation_failed',
      [
        { field: '\ud800', issue: 'is not a recognised field' },
        { field: '\ud800', issue: LONE },
      ],
    );
    assert.equal(err.details.length, 2);
    const list = await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key });
    assert.deepEqual(list.json().data, [], 'nothing was created');

    // A surrogate pair (an emoji) is valid text and is kept exactly.
    const ok = await send('POST', '/v1/blog/posts', key, '{"title":"Pair","body_html":"<p>\\ud83c\\udf89</p>"}');
    assert.equal(ok.statusCode, 201, ok.body);
    const id = ok.json().id as number;
    const read = await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key });
    assert.equal(read.json().body_html, '<p>🎉</p>');

    assertError(await send('PATCH', `/v1/blog/posts/${id}`, key, '{"title":"x\\udc00y"}'), 'validation_failed', [
      { field: 'title', issue: LONE },
    ]);
    assert.equal(
      (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key })).json().title,
      'Pair',
      'the post is unchanged',
    );
  });

  it('refuses a lone surrogate in a category name', async () => {
    const { key } = await suite.t.tenant({ categories: true });
    assertError(await send('POST', '/v1/blog/categories', key, '{"name":"News \\ud800"}'), 'validation_failed', [
      { field: 'name', issue: LONE },
    ]);
    assert.deepEqual((await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key })).json().data, []);
  });

  it('refuses the NUL character in body fields, query parameters and path ids, and stores nothing', async () => {
    const { key } = await suite.t.tenant({ categories: true });
    assertError(
      await send('POST', '/v1/blog/posts', key, '{"title":"Fine","body_html":"<p>a\\u0000b</p>","summary":"\\u0000"}'),
      'validation_failed',
      [
        { field: 'body_html', issue: NUL },
        { field: 'summary', issue: NUL },
      ],
    );
    assertError(await send('POST', '/v1/blog/categories', key, '{"name":"News\\u0000"}'), 'validation_failed', [
      { field: 'name', issue: NUL },
    ]);
    assertError(
      await suite.t.request({ method: 'GET', url: '/v1/audit/events?action=post.created%00', key }),
      'validation_failed',
      [{ field: 'action', issue: NUL }],
    );
    assertError(await suite.t.request({ method: 'GET', url: '/v1/webhooks/wh_%00', key }), 'validation_failed', [
      { field: 'id', issue: NUL },
    ]);
    assert.deepEqual(
      (await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key })).json().data,
      [],
      'nothing was created',
    );
    assert.deepEqual((await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key })).json().data, []);
  });

  it('refuses query values whose percent-escapes are not UTF-8, naming the parameter', async () => {
    const { key } = await suite.t.tenant();
    await createPost(suite.t, key);
    for (const bad of ['%ED%A0%80', '%FF', 'abc%C3', '%C0%AF']) {
      assertError(
        await suite.t.request({ method: 'GET', url: `/v1/audit/events?resource_id=${bad}`, key }),
        'validation_failed',
        [{ field: 'resource_id', issue: NOT_UTF8 }],
      );
    }
    assertError(
      await suite.t.request({ method: 'GET', url: '/v1/blog/posts?cursor=%ED%B0%80', key }),
      'validation_failed',
      [{ field: 'cursor', issue: NOT_UTF8 }],
    );
    // Valid escapes (and a stray '%') are still read as before.
    const ok = await suite.t.request({ method: 'GET', url: '/v1/audit/events?resource_id=%F0%9F%8E%89', key });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(
      (await suite.t.request({ method: 'GET', url: '/v1/audit/events?resource_id=100%', key })).statusCode,
      200,
    );
  });
});
