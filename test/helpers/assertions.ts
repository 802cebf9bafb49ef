import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { ERROR_CATALOGUE, type ErrorCode, type MessageLanguage } from '../../src/lib/error-catalogue.js';
import { API_VERSION_DATE } from '../../src/version.js';

/**
 * Asserts the whole error envelope: status, code, message (the catalogue's text in `language`,
 * zh-TW unless told, named by Content-Language), details exactly, request_id equal to the
 * X-Request-Id header, retryable, and the common headers.
 */
/** An answer from inject() or from a real server (see fetch-response.ts). */
export type AnyResponse = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body' | 'json'>;

export function assertError(
  res: AnyResponse,
  code: ErrorCode,
  details: Array<{ field: string; issue: string | RegExp }> = [],
  options: { truncated?: boolean; language?: MessageLanguage } = {},
): Record<string, any> {
  const language = options.language ?? 'zh-TW';
  const spec = ERROR_CATALOGUE[code];
  const body = res.json();
  assert.equal(res.statusCode, spec.status, `status for ${code}: ${res.body}`);
  assert.deepEqual(Object.keys(body), ['error']);
  const err = body.error;
  const keys = [
    'code',
    'details',
    ...(options.truncated ? ['details_truncated'] : []),
    'message',
    'request_id',
    'retryable',
  ];
  assert.deepEqual(Object.keys(err).sort(), keys);
  if (options.truncated) assert.equal(err.details_truncated, true);
  assert.equal(err.code, code);
  assert.equal(err.message, spec.messages[language]);
  assert.equal(res.headers['content-language'], language);
  assert.equal(err.retryable, spec.retryable);
  assert.equal(typeof err.request_id, 'string');
  assert.equal(err.request_id, res.headers['x-request-id']);
  assert.equal(res.headers['x-svc-api-version'], API_VERSION_DATE);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(err.details.length, details.length, `details: ${JSON.stringify(err.details)}`);
  details.forEach((expected, i) => {
    assert.equal(err.details[i].field, expected.field, `details[${i}].field in ${JSON.stringify(err.details)}`);
    if (expected.issue instanceof RegExp) assert.match(err.details[i].issue, expected.issue);
    else assert.equal(err.details[i].issue, expected.issue);
  });
  return err;
}

export function assertCommonHeaders(res: AnyResponse): void {
  assert.equal(typeof res.headers['x-request-id'], 'string');
  assert.equal(res.headers['x-svc-api-version'], API_VERSION_DATE);
  assert.equal(res.headers['cache-control'], 'no-store');
}
