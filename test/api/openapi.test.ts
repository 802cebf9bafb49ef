import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { ERROR_CODES } from '../../src/lib/error-catalogue.js';

/** Every endpoint of the contract, as `METHOD path` in OpenAPI's path syntax. */
const CONTRACT_OPERATIONS = [
  'post /v1/blog/posts',
  'patch /v1/blog/posts/{id}',
  'get /v1/blog/posts/{id}',
  'get /v1/blog/posts',
  'post /v1/blog/posts/{id}/publish',
  'post /v1/blog/posts/{id}/unpublish',
  'delete /v1/blog/posts/{id}',
  'get /v1/blog/categories',
  'post /v1/blog/categories',
  'get /v1/audit/events',
  'get /v1/me',
  'get /v1/openapi.json',
];
const MEDIA_OPERATIONS = ['post /v1/media/images', 'delete /v1/media/images/{id}'];

describe('GET /v1/openapi.json', () => {
  let t: TestApp;
  let doc: any;
  before(async () => {
    t = await startTestApp(sqlite);
    const { key } = await t.tenant({ scopes: ['read_blog'] });
    const res = await t.request({ method: 'GET', url: '/v1/openapi.json', key });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    doc = res.json();
  });
  after(() => t?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 3000));
  });

  it('describes every endpoint of the contract that is served, and only /v1', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).filter((m) => ['get', 'post', 'patch', 'delete', 'put'].includes(m)).map((m) => `${m} ${path}`),
    );
    const served = t.app.printRoutes({ commonPrefix: false }).includes('media/images') ? [...CONTRACT_OPERATIONS, ...MEDIA_OPERATIONS] : CONTRACT_OPERATIONS;
    for (const op of served) assert.ok(operations.includes(op), `missing ${op}`);
    assert.ok(operations.every((op) => op.split(' ')[1].startsWith('/v1/')), operations.join(', '));
  });

  it('carries the error envelope and names the error codes of each operation', () => {
    const envelope = doc.components.schemas.ErrorEnvelope;
    assert.deepEqual(envelope.properties.error.required.sort(), ['code', 'details', 'message', 'request_id', 'retryable']);
    const described = new Set<string>();
    for (const item of Object.values(doc.paths as Record<string, any>)) {
      for (const op of Object.values(item) as any[]) {
        assert.ok(op.responses['401'], `${op.summary}: 401 described`);
        for (const response of Object.values(op.responses) as any[]) {
          const m = /^Error codes: (.*)$/.exec(response.description ?? '');
          if (m) m[1].split(', ').forEach((c) => described.add(c));
        }
      }
    }
    const expected = ERROR_CODES.filter((c) => !['image_too_large', 'unsupported_media_type', 'image_in_use'].includes(c));
    for (const code of expected) assert.ok(described.has(code), `error code ${code} described somewhere`);
  });

  it('is generated from the validating schemas: the create body refuses extra fields and requires title and body_html', () => {
    const body = doc.paths['/v1/blog/posts'].post.requestBody.content['application/json'].schema;
    assert.equal(body.additionalProperties, false);
    assert.deepEqual([...body.required].sort(), ['body_html', 'title']);
    assert.deepEqual(body.properties.summary.type, ['string', 'null']);
    assert.equal(doc.paths['/v1/blog/posts'].get.parameters.find((p: any) => p.name === 'limit').schema.maximum, 50);
  });
});
