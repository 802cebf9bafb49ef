// One request's work is bounded whatever its shape: at most 100 details (the envelope says when
// more were found), nesting refused past 32 levels before any recursive check, bodies and query
// parameters refused where an operation takes none. Inputs are the ones that found each defect.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const DEPTH_ISSUE = 'must not nest arrays and objects more than 32 levels deep';

/** `{"name":"x","extra":[[[…]]]}` with `levels` nested arrays in the extra field. */
const nestedBody = (levels: number, base = '"name":"x",') =>
  `{${base}"extra":${'['.repeat(levels)}${']'.repeat(levels)}}`;

describeTenantApp(
  'bounded work per request',
  { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }, tenant: { categories: true } },
  (suite) => {
    let n = 0;
    const raw = (
      method: 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload: string,
      headers: Record<string, string> = {},
    ) =>
      suite.t.request({
        method,
        url,
        key: suite.key,
        payload,
        headers: { 'content-type': 'application/json', 'idempotency-key': `bw-${++n}`, ...headers },
      });

    it('refuses 400,000 unknown fields by size or by count before parsing them, and lists at most 100 details below that', async () => {
      const fields: string[] = [];
      for (let i = 0; i < 400_000; i++) fields.push(`"f${i}":1`);
      const wide = `{${fields.join(',')}}`;
      assertError(await raw('POST', '/v1/blog/categories', wide), 'content_too_large', [
        { field: 'body', issue: 'exceeds the size this endpoint accepts' },
      ]);
      assertError(await raw('POST', '/v1/blog/posts', wide), 'validation_failed', [
        { field: 'body', issue: 'must not hold more than 10000 values (object members and array items)' },
      ]);
      const res = await raw('POST', '/v1/blog/categories', `{${fields.slice(0, 5000).join(',')}}`);
      const expected = [
        { field: 'name', issue: 'is required' },
        ...Array.from({ length: 99 }, (_, i) => ({ field: `f${i}`, issue: 'is not a recognised field' })),
      ];
      assertError(res, 'validation_failed', expected, { truncated: true });
      assert.ok(res.body.length < 10_000, `answer of ${res.body.length} bytes`);
      const post = await raw(
        'POST',
        '/v1/blog/posts',
        `{"title":"t","body_html":"b",${fields.slice(0, 9000).join(',')}}`,
      );
      assertError(
        post,
        'validation_failed',
        Array.from({ length: 100 }, (_, i) => ({ field: `f${i}`, issue: 'is not a recognised field' })),
        { truncated: true },
      );
    });

    it('lists exactly 100 details without the truncation flag when there are exactly 100', async () => {
      const fields = Array.from({ length: 99 }, (_, i) => `"f${i}":1`);
      const res = await raw('POST', '/v1/blog/categories', `{${fields.join(',')}}`);
      assertError(res, 'validation_failed', [
        { field: 'name', issue: 'is required' },
        ...fields.map((_, i) => ({ field: `f${i}`, issue: 'is not a recognised field' })),
      ]);
    });

    it('caps details for a long array of wrong items and for many strings that are not text', async () => {
      const post = await createPost(suite.t, suite.key);
      const ids = JSON.stringify(Array.from({ length: 5000 }, () => 'x'));
      const res = await raw('PATCH', `/v1/blog/posts/${post.id}`, `{"category_ids":${ids}}`);
      const err = assertError(
        res,
        'validation_failed',
        [
          { field: 'category_ids', issue: 'must NOT have more than 100 items' },
          ...Array.from({ length: 99 }, (_, i) => ({ field: `category_ids[${i}]`, issue: 'must be integer' })),
        ],
        { truncated: true },
      );
      assert.equal(err.details.length, 100);
      const lone = Array.from({ length: 3000 }, (_, i) => `"\\ud800${i}":1`).join(',');
      const res2 = await raw('PATCH', `/v1/blog/posts/${post.id}`, `{"title":"t",${lone}}`);
      assert.equal(res2.statusCode, 422);
      assert.equal(res2.json().error.details.length, 100);
      assert.equal(res2.json().error.details_truncated, true);
    });

    it('refuses 6,000 nested arrays with 422 on every operation that takes a JSON body', async () => {
      const post = await createPost(suite.t, suite.key);
      const body = nestedBody(6000);
      const routes: Array<['POST' | 'PATCH' | 'DELETE', string]> = [
        ['POST', '/v1/blog/categories'],
        ['PATCH', '/v1/blog/categories/1'],
        ['POST', '/v1/blog/posts'],
        ['PATCH', `/v1/blog/posts/${post.id}`],
        ['POST', `/v1/blog/posts/${post.id}/publish`],
        ['DELETE', `/v1/blog/posts/${post.id}`],
        ['POST', `/v1/blog/posts/${post.id}/preview-links`],
        ['POST', '/v1/webhooks'],
        ['PATCH', '/v1/webhooks/1'],
        ['POST', `/v1/blog/posts/${post.id}/unpublish`],
      ];
      for (const [method, url] of routes) {
        const res = await raw(method, url, body);
        assertError(res, 'validation_failed', [{ field: 'body', issue: DEPTH_ISSUE }]);
      }
      // A 2 MB version is refused as quickly (where a body may be that large), and 32 levels are still read as JSON.
      assertError(await raw('POST', '/v1/blog/posts', nestedBody(1_000_000)), 'validation_failed', [
        { field: 'body', issue: DEPTH_ISSUE },
      ]);
      assertError(await raw('POST', '/v1/blog/categories', nestedBody(31)), 'validation_failed', [
        { field: 'extra', issue: 'is not a recognised field' },
      ]);
      assertError(await raw('POST', '/v1/blog/categories', nestedBody(32)), 'validation_failed', [
        { field: 'body', issue: DEPTH_ISSUE },
      ]);
      // Brackets inside strings are text, not nesting.
      assertError(
        await raw('POST', '/v1/blog/categories', `{"name":"x","extra":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`),
        'validation_failed',
        [{ field: 'extra', issue: 'is not a recognised field' }],
      );
      // A string ending in escaped backslashes ends at its quote: the arrays after it count.
      assertError(
        await raw('POST', '/v1/blog/categories', `{"name":"x\\\\\\\\","extra":${'['.repeat(40)}${']'.repeat(40)}}`),
        'validation_failed',
        [{ field: 'body', issue: DEPTH_ISSUE }],
      );
      // A quote after three backslashes is escaped: the brackets after it are still text.
      assertError(
        await raw('POST', '/v1/blog/categories', `{"name":"x","extra":"\\\\\\"${'['.repeat(100)}"}`),
        'validation_failed',
        [{ field: 'extra', issue: 'is not a recognised field' }],
      );
    });

    it("refuses a post body longer than the store's body_max_bytes could need by its length, before reading it", async () => {
      const store = await suite.t.createStore({ changes: { body_max_bytes: 1024 } });
      const key = await suite.t.issueKey(store);
      const post = await createPost(suite.t, key);
      // 6 bytes of JSON per byte of text (\u00XX), and 1 MiB for the other fields and spacing.
      const ceiling = 6 * 1024 + 1024 * 1024;
      const announced = (method: 'POST' | 'PATCH', url: string, length: number, payload = '{}') =>
        suite.t.app.inject({
          method,
          url,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': String(length),
            'idempotency-key': `bw-len-${++n}`,
          },
          payload,
        });
      const issue = (length: number) =>
        `is ${length} bytes; a post whose body_html is within limits.body_max_bytes (1024) needs at most ${ceiling}`;
      // Only two bytes follow the headers: the answer cannot have waited for the body.
      for (const [method, url] of [
        ['POST', '/v1/blog/posts'],
        ['PATCH', `/v1/blog/posts/${post.id}`],
      ] as const) {
        assertError(await announced(method, url, ceiling + 1), 'content_too_large', [
          { field: 'body', issue: issue(ceiling + 1) },
        ]);
      }
      // At the ceiling the body is read: its body_html is measured against the limit as usual.
      const html = `<p>${'x'.repeat(1100)}</p>`;
      const padded = (length: number) => {
        const json = JSON.stringify({ title: 't', body_html: html });
        return json.slice(0, -1) + ' '.repeat(length - json.length) + '}';
      };
      assertError(await announced('POST', '/v1/blog/posts', ceiling, padded(ceiling)), 'content_too_large', [
        { field: 'body_html', issue: `is ${Buffer.byteLength(html)} bytes; the limit is 1024` },
      ]);
      // The default store (1 MiB) takes a 16 MiB body to nothing but this refusal.
      const big = 16 * 1024 * 1024;
      assertError(await raw('POST', '/v1/blog/posts', ' '.repeat(big - 2) + '{}'), 'content_too_large', [
        {
          field: 'body',
          issue: `is ${big} bytes; a post whose body_html is within limits.body_max_bytes (1048576) needs at most ${6 * 1048576 + 1048576}`,
        },
      ]);
      // Other routes keep their own bound.
      assertError(await announced('POST', '/v1/blog/categories', 70_000), 'content_too_large', [
        { field: 'body', issue: 'exceeds the size this endpoint accepts' },
      ]);
    });

    it('refuses a body on operations that take none, and query parameters on operations that take none', async () => {
      const post = await createPost(suite.t, suite.key);
      const hook = await suite.t.request({
        method: 'POST',
        url: '/v1/webhooks',
        key: suite.key,
        body: { url: 'http://127.0.0.1:9/in', events: ['post.published'] },
      });
      assert.equal(hook.statusCode, 201, hook.body);
      const hookId = hook.json().id;
      for (const url of [`/v1/blog/posts/${post.id}/unpublish`, `/v1/webhooks/${hookId}/rotate-secret`]) {
        assertError(await raw('POST', url, '{"force":true}'), 'validation_failed', [
          { field: 'body', issue: 'must be empty: this operation takes no body' },
        ]);
      }
      // The test event takes an optional body ({"type": …}, a sample): anything else in it is named.
      assertError(await raw('POST', `/v1/webhooks/${hookId}/test`, '{"force":true}'), 'validation_failed', [
        { field: 'force', issue: 'is not a recognised field' },
      ]);
      assertError(
        await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}?expand=all&x=1`, key: suite.key }),
        'validation_failed',
        [
          { field: 'expand', issue: 'is not a recognised field' },
          { field: 'x', issue: 'is not a recognised field' },
        ],
      );
      assertError(
        await suite.t.request({ method: 'GET', url: '/v1/webhooks?status=failed', key: suite.key }),
        'validation_failed',
        [{ field: 'status', issue: 'is not a recognised field' }],
      );
      // The deliveries list filters by status: a wrong one gets the list's own rule, never the post hint.
      assertError(
        await suite.t.request({
          method: 'GET',
          url: `/v1/webhooks/${hookId}/deliveries?status=published`,
          key: suite.key,
        }),
        'validation_failed',
        [{ field: 'status', issue: 'must be equal to one of the allowed values' }],
      );
      // An empty body is no body.
      assert.equal((await raw('POST', `/v1/blog/posts/${post.id}/unpublish`, '')).statusCode, 200);
    });
  },
);
