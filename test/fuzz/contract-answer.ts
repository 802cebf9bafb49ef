// What every answer to a /v1 request must be, however hostile the request: a status the
// API documents (never a 5xx), the common headers, and for an error the whole envelope with a
// catalogue code whose status and flags match.
import assert from 'node:assert/strict';
import {
  ERROR_CATALOGUE,
  MESSAGE_LANGUAGES,
  type ErrorCode,
  type MessageLanguage,
} from '../../src/lib/error-catalogue.js';
import { API_VERSION_DATE } from '../../src/version.js';
import type { NoAnswer, RawAnswer } from './raw-http.js';

/** The API's statuses (docs/api-behaviour.md) without the 5xx ones; 304 answers a read's If-None-Match. */
const CONTRACT_STATUSES = new Set([200, 201, 202, 204, 304, 401, 403, 404, 409, 410, 413, 415, 422, 429]);
const REQUEST_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export function isAnswer(res: RawAnswer | NoAnswer): res is RawAnswer {
  return !('closedWithoutAnswer' in res);
}

/** A Content API read a cache may keep (docs/content-api.md): PUBLIC_CACHE_* in the test's defaults. */
const PUBLIC_CACHE_CONTROL = /^public, max-age=\d+(, stale-while-revalidate=\d+)?$/;

/**
 * Asserts the answer is one the API documents. A connection closed without one byte is accepted: it is
 * how the server drops what its HTTP parser cannot read at all. Anything it does send must be
 * a whole documented answer. `route` is the router path the request was made for: a Content API
 * read answered 200 or 304 may be cached; every other answer is `no-store`.
 */
export function assertContractAnswer(res: RawAnswer | NoAnswer, method: string, route: string): void {
  if (!isAnswer(res)) return;
  const show = () => `${res.head}\r\n\r\n${res.body.toString('utf8').slice(0, 600)}`;
  assert.ok(res.status < 500, `5xx answer:\n${show()}`);
  assert.ok(CONTRACT_STATUSES.has(res.status), `status ${res.status} is not a contract status:\n${show()}`);
  const requestId = res.headers['x-request-id'];
  assert.ok(requestId !== undefined && REQUEST_ID.test(requestId), `X-Request-Id missing or malformed:\n${show()}`);
  assert.equal(res.headers['x-svc-api-version'], API_VERSION_DATE, `X-Svc-Api-Version:\n${show()}`);
  const cacheable =
    route.startsWith('/v1/content/') &&
    (method === 'GET' || method === 'HEAD') &&
    (res.status === 200 || res.status === 304);
  if (cacheable) assert.match(res.headers['cache-control'] ?? '', PUBLIC_CACHE_CONTROL, `Cache-Control:\n${show()}`);
  else assert.equal(res.headers['cache-control'], 'no-store', `Cache-Control:\n${show()}`);
  if (res.status === 304) {
    // A conditional read whose copy is current (`If-None-Match`, `*` included): no body, the ETag.
    assert.ok(method === 'GET' || method === 'HEAD', `304 to a ${method}:\n${show()}`);
    assert.ok(res.headers.etag !== undefined, `a 304 without its ETag:\n${show()}`);
    assert.equal(res.body.length, 0, `a 304 answer has no body:\n${show()}`);
    return;
  }
  if (method === 'HEAD' || res.status === 204) {
    assert.equal(res.body.length, 0, `a ${method} ${res.status} answer has no body:\n${show()}`);
    return;
  }
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, `Content-Type:\n${show()}`);
  let body: any;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    assert.fail(`the body is not JSON:\n${show()}`);
  }
  if (res.status < 400) return;
  assert.deepEqual(Object.keys(body), ['error'], `envelope:\n${show()}`);
  const err = body.error;
  // details_truncated appears only with a full list of 100 details.
  const truncated = Array.isArray(err.details) && err.details.length === 100 && err.details_truncated === true;
  assert.deepEqual(
    Object.keys(err).sort(),
    ['code', 'details', ...(truncated ? ['details_truncated'] : []), 'message', 'request_id', 'retryable'],
    `envelope fields:\n${show()}`,
  );
  assert.ok(err.details.length <= 100, `at most 100 details:\n${show()}`);
  const spec = ERROR_CATALOGUE[err.code as ErrorCode];
  assert.ok(spec, `unknown error code ${err.code}:\n${show()}`);
  assert.equal(spec.status, res.status, `status of ${err.code}:\n${show()}`);
  // The message is the catalogue's in the language Content-Language names (Accept-Language chose it).
  const language = res.headers['content-language'] as MessageLanguage;
  assert.ok(MESSAGE_LANGUAGES.includes(language), `Content-Language of an error:\n${show()}`);
  assert.equal(err.message, spec.messages[language], `message of ${err.code}`);
  assert.equal(err.retryable, spec.retryable, `retryable of ${err.code}`);
  assert.equal(err.request_id, requestId, `request_id equals X-Request-Id:\n${show()}`);
  assert.ok(Array.isArray(err.details), `details is an array:\n${show()}`);
  for (const d of err.details) {
    assert.deepEqual(Object.keys(d).sort(), ['field', 'issue'], `detail shape:\n${show()}`);
    assert.equal(typeof d.field, 'string');
    assert.equal(typeof d.issue, 'string');
  }
  if (res.status === 429 || err.code === 'idempotency_in_progress') {
    assert.match(res.headers['retry-after'] ?? '', /^\d+$/, `a blocked request carries Retry-After:\n${show()}`);
  }
}

export function jsonOf(res: RawAnswer): any {
  return JSON.parse(res.body.toString('utf8'));
}
