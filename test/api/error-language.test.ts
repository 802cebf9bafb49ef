// Error messages in English through HTTP on both engines: Accept-Language chooses the message's
// language for every error answer, those given before a route runs included (authentication,
// limits, unknown routes, unreadable bodies, the router's own refusals); the code, details,
// status, retryable and headers stay as they are, and Content-Language names the language.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { assertError } from '../helpers/assertions.js';
import type { RequestOptions } from '../helpers/test-app.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import type { ErrorCode, MessageLanguage } from '../../src/lib/error-catalogue.js';

/** Accept-Language as sent (undefined: none) and the language of the answer. */
const HEADERS: Array<[string | undefined, MessageLanguage]> = [
  ['en', 'en'],
  ['en-GB', 'en'],
  ['EN-us', 'en'],
  ['fr;q=1, en;q=0.5', 'en'],
  ['zh-TW;q=0.5, en', 'en'],
  ['zh-TW', 'zh-TW'],
  [undefined, 'zh-TW'],
  ['*', 'zh-TW'],
  ['garbage', 'zh-TW'],
  ['en;q=0', 'zh-TW'],
  ['fr', 'zh-TW'],
];

describeTenantApp('error messages follow Accept-Language', (suite) => {
  let readOnce: string;
  let mediaOnly: string;
  let noMedia: string;
  before(async () => {
    readOnce = await suite.t.issueKey(suite.store, ['read_blog'], { readPerMinute: 1 });
    mediaOnly = await suite.t.issueKey(suite.store, ['write_media']);
    noMedia = (await suite.t.tenant({ media: false })).key;
  });

  /** Sends `request` with each Accept-Language and checks the whole envelope and Content-Language. */
  async function eachLanguage(
    request: () => RequestOptions,
    code: ErrorCode,
    details: Array<{ field: string; issue: string | RegExp }> = [],
    check?: (res: LightMyRequestResponse) => void,
  ) {
    const seen = new Map<MessageLanguage, string>();
    for (const [header, language] of HEADERS) {
      const req = request();
      const res = await suite.t.request({
        ...req,
        headers: { ...req.headers, ...(header === undefined ? {} : { 'accept-language': header }) },
      });
      const err = assertError(res, code, details, { language });
      check?.(res);
      seen.set(language, err.message);
    }
    assert.notEqual(seen.get('en'), seen.get('zh-TW'), 'two languages, two messages');
  }

  it('a route’s own error (not_found of an unknown post)', async () => {
    await eachLanguage(() => ({ method: 'GET', url: '/v1/blog/posts/999999', key: suite.key }), 'not_found');
  });

  it('validation with its details unchanged (details stay English in every language)', async () => {
    await eachLanguage(
      () => ({ method: 'GET', url: '/v1/media/images?limit=0', key: suite.key }),
      'validation_failed',
      [{ field: 'limit', issue: 'must be >= 1' }],
    );
  });

  it('authentication: no key, a wrong key', async () => {
    await eachLanguage(() => ({ method: 'GET', url: '/v1/me' }), 'unauthorized');
    await eachLanguage(
      () => ({ method: 'GET', url: '/v1/me', headers: { authorization: 'Bearer svc_live_nope' } }),
      'unauthorized',
    );
  });

  it('scope, with the missing scope in details', async () => {
    await eachLanguage(
      () => ({ method: 'GET', url: '/v1/media/images', key: mediaOnly }),
      'insufficient_scope',
      [{ field: 'scope', issue: 'required: read_blog' }],
      (res) => assert.ok(res.headers['x-ratelimit-limit'], 'the rate headers are still there'),
    );
  });

  it('rate limits, with Retry-After', async () => {
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/me', key: readOnce })).statusCode, 200);
    await eachLanguage(
      () => ({ method: 'GET', url: '/v1/me', key: readOnce }),
      'rate_limited',
      [],
      (res) => assert.match(String(res.headers['retry-after']), /^\d+$/),
    );
  });

  it('a feature the store has off', async () => {
    await eachLanguage(() => ({ method: 'GET', url: '/v1/media/images', key: noMedia }), 'feature_unavailable');
  });

  it('unknown routes and methods, before authentication', async () => {
    await eachLanguage(() => ({ method: 'GET', url: '/v1/nothing-here' }), 'not_found');
    await eachLanguage(() => ({ method: 'PUT', url: '/v1/blog/posts', key: suite.key }), 'not_found');
  });

  it('bodies that cannot be read: malformed JSON, another Content-Type, too large', async () => {
    const post =
      (payload: string, contentType = 'application/json') =>
      () => ({
        method: 'POST' as const,
        url: '/v1/blog/categories',
        key: suite.key,
        payload,
        headers: { 'content-type': contentType, 'idempotency-key': 'lang' },
      });
    await eachLanguage(post('{"name":'), 'validation_failed', [{ field: 'body', issue: 'is not valid JSON' }]);
    await eachLanguage(post('name=x', 'text/plain'), 'validation_failed', [
      { field: 'Content-Type', issue: 'must be application/json' },
    ]);
    await eachLanguage(post(JSON.stringify({ name: 'x'.repeat(70_000) })), 'content_too_large', [
      { field: 'body', issue: /.+/ },
    ]);
  });

  it('the router’s own refusals: a path that cannot be decoded, a parameter over 200 characters', async () => {
    await eachLanguage(() => ({ method: 'GET', url: '/v1/blog/posts/%%', key: suite.key }), 'not_found');
    await eachLanguage(
      () => ({ method: 'GET', url: `/v1/media/images/${'i'.repeat(201)}`, key: suite.key }),
      'not_found',
    );
  });

  it('a success carries no Content-Language', async () => {
    const res = await suite.t.request({
      method: 'GET',
      url: '/v1/me',
      key: suite.key,
      headers: { 'accept-language': 'en' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-language'], undefined);
  });
});
