// Every error answer is small, whatever the input it echoes (docs/api-behaviour.md, "Bounded
// work per request"): each detail's `field` and `issue` is cut to 200 characters (the first 199
// and `…`), and the details stop before their JSON passes 12,000 bytes, so a whole answer stays
// under 16 KB. Inputs are the ones that found each defect: a 6 MiB unknown field name was echoed
// whole (a 6,291,653-byte answer), a 1 MiB multipart field name as 82 KB.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import { multipartBody } from './media-support.js';

const UNKNOWN = 'is not a recognised field';
/** Bytes every answer here stays under. */
const ANSWER_BYTES = 16_000;

/** `name` as an answer lists it: whole up to 200 characters, else its first 199 and an ellipsis. */
const cut = (name: string) => {
  const chars = [...name];
  return chars.length <= 200 ? name : `${chars.slice(0, 199).join('')}…`;
};

describeTenantApp('error answers are small', { tenant: { media: true } }, (suite) => {
  let n = 0;
  const post = (payload: string) =>
    suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key: suite.key,
      payload,
      headers: { 'content-type': 'application/json', 'idempotency-key': `small-${++n}` },
    });
  const small = (res: { body: string }) =>
    assert.ok(Buffer.byteLength(res.body) < ANSWER_BYTES, `an answer of ${Buffer.byteLength(res.body)} bytes`);

  it('cuts a 6 MiB unknown field name to 200 characters', async () => {
    const name = 'n'.repeat(6 * 1024 * 1024);
    const res = await post(`{"title":"t","body_html":"<p>b</p>","${name}":1}`);
    assertError(res, 'validation_failed', [{ field: `${'n'.repeat(199)}…`, issue: UNKNOWN }]);
    small(res);
  });

  it('echoes a name of 200 characters whole and cuts one of 201, never inside a surrogate pair', async () => {
    const exact = 'e'.repeat(200);
    const over = 'o'.repeat(201);
    const emoji = '😀'.repeat(300);
    const res = await post(`{"title":"t","body_html":"<p>b</p>","${exact}":1,"${over}":1,"${emoji}":1}`);
    assertError(res, 'validation_failed', [
      { field: exact, issue: UNKNOWN },
      { field: `${'o'.repeat(199)}…`, issue: UNKNOWN },
      { field: `${'😀'.repeat(199)}…`, issue: UNKNOWN },
    ]);
    small(res);
  });

  it('lists long unknown names until their JSON reaches 12,000 bytes, and says more were found', async () => {
    // Each listed detail is {"field":"<199 letters>…","issue":"is not a recognised field"}: 250
    // bytes and a comma, so 47 fit in 12,000.
    const names = Array.from({ length: 150 }, (_, i) => `${i}`.padStart(10_000, 'x'));
    const res = await post(`{"title":"t","body_html":"<p>b</p>",${names.map((k) => `"${k}":1`).join(',')}}`);
    assertError(
      res,
      'validation_failed',
      names.slice(0, 47).map((k) => ({ field: cut(k), issue: UNKNOWN })),
      { truncated: true },
    );
    small(res);
    // Names of control characters, which JSON spells in six bytes each: 9 details of 1,246 bytes.
    const control = Array.from({ length: 101 }, (_, i) => `\\u0001`.repeat(1000) + i);
    const res2 = await post(`{"title":"t","body_html":"<p>b</p>",${control.map((k) => `"${k}":1`).join(',')}}`);
    assertError(
      res2,
      'validation_failed',
      Array.from({ length: 9 }, () => ({ field: `${'\u0001'.repeat(199)}…`, issue: UNKNOWN })),
      { truncated: true },
    );
    small(res2);
  });

  it('lists 100 short unknown names as before, and long query parameter names cut', async () => {
    const names = Array.from({ length: 120 }, (_, i) => `f${i}`);
    const res = await post(`{"title":"t","body_html":"<p>b</p>",${names.map((k) => `"${k}":1`).join(',')}}`);
    assertError(
      res,
      'validation_failed',
      names.slice(0, 100).map((k) => ({ field: k, issue: UNKNOWN })),
      { truncated: true },
    );
    small(res);
    const query = 'q'.repeat(10_000);
    const res2 = await suite.t.request({ method: 'GET', url: `/v1/webhooks?${query}=1&b=2`, key: suite.key });
    assertError(res2, 'validation_failed', [
      { field: `${'q'.repeat(199)}…`, issue: UNKNOWN },
      { field: 'b', issue: UNKNOWN },
    ]);
    small(res2);
  });

  it('cuts a 1 MiB multipart field name to 200 characters', async () => {
    const name = 'm'.repeat(1024 * 1024);
    const { payload, contentType } = multipartBody([
      { name, data: 'x' },
      { name: 'file', filename: 'a.jpg', data: 'not an image' },
    ]);
    const res = await suite.t.request({
      method: 'POST',
      url: '/v1/media/images',
      key: suite.key,
      payload,
      headers: { 'content-type': contentType },
    });
    assertError(res, 'validation_failed', [{ field: `${'m'.repeat(199)}…`, issue: UNKNOWN }]);
    small(res);
  });
});
