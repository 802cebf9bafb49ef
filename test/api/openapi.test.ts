import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ERROR_CODES } from '../../src/lib/error-catalogue.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Every documented endpoint, as `METHOD path` in OpenAPI's path syntax. */
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
  'get /v1/events',
  'get /v1/events/{id}',
];
const MEDIA_OPERATIONS = [
  'post /v1/media/images',
  'delete /v1/media/images/{id}',
  'get /v1/media/images',
  'get /v1/media/images/{id}',
];

const SCHEMA_REF = '#/components/schemas/';

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

  /** A schema, following a reference to a named component. */
  const resolve = (schema: any) =>
    schema.$ref ? doc.components.schemas[schema.$ref.slice(SCHEMA_REF.length)] : schema;

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 3000));
  });

  it('describes every documented endpoint that is served, and only /v1', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'post', 'patch', 'delete', 'put'].includes(m))
        .map((m) => `${m} ${path}`),
    );
    const served = t.app.printRoutes({ commonPrefix: false }).includes('media/images')
      ? [...CONTRACT_OPERATIONS, ...MEDIA_OPERATIONS]
      : CONTRACT_OPERATIONS;
    for (const op of served) assert.ok(operations.includes(op), `missing ${op}`);
    assert.ok(
      operations.every((op) => op.split(' ')[1].startsWith('/v1/')),
      operations.join(', '),
    );
  });

  it('carries the error envelope and names the error codes of each operation', () => {
    const envelope = doc.components.schemas.ErrorEnvelope;
    assert.deepEqual(envelope.properties.error.required.sort(), [
      'code',
      'details',
      'message',
      'request_id',
      'retryable',
    ]);
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
    const expected = ERROR_CODES.filter(
      (c) => !['image_too_large', 'unsupported_media_type', 'image_in_use'].includes(c),
    );
    for (const code of expected) assert.ok(described.has(code), `error code ${code} described somewhere`);
  });

  it('is generated from the validating schemas: the create body refuses extra fields and requires title and body_html', () => {
    const body = resolve(doc.paths['/v1/blog/posts'].post.requestBody.content['application/json'].schema);
    assert.equal(body.additionalProperties, false);
    assert.deepEqual([...body.required].sort(), ['body_html', 'title']);
    assert.deepEqual(body.properties.summary.type, ['string', 'null']);
    assert.equal(doc.paths['/v1/blog/posts'].get.parameters.find((p: any) => p.name === 'limit').schema.maximum, 50);
  });
});

describe('GET /v1/openapi.json: what generated clients need', () => {
  let t: TestApp;
  let doc: any;
  before(async () => {
    t = await startTestApp(sqlite);
    const { key } = await t.tenant({ scopes: ['read_blog'] });
    doc = (await t.request({ method: 'GET', url: '/v1/openapi.json', key })).json();
  });
  after(() => t?.close());

  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ id: `${method} ${path}`, op })),
    );

  it('names the resources under components, with times as date-time and the error code an enum of the catalogue', () => {
    const schemas = doc.components.schemas;
    for (const name of [
      'Post',
      'PostListItem',
      'PostPage',
      'Image',
      'ImagePage',
      'Event',
      'Category',
      'Identity',
      'AuditEvent',
      'AuditEventPage',
      'ErrorEnvelope',
    ])
      assert.ok(schemas[name], `components.schemas.${name}`);
    assert.deepEqual(schemas.PostPage.properties.data.items, { $ref: `${SCHEMA_REF}PostListItem` });
    assert.deepEqual(schemas.AuditEventPage.properties.data.items, { $ref: `${SCHEMA_REF}AuditEvent` });
    assert.deepEqual(schemas.ImagePage.properties.data.items, { $ref: `${SCHEMA_REF}Image` });
    assert.deepEqual(doc.paths['/v1/media/images/{id}'].get.responses['200'].content['application/json'].schema, {
      $ref: `${SCHEMA_REF}Image`,
    });
    assert.deepEqual(doc.paths['/v1/events/{id}'].get.responses['200'].content['application/json'].schema, {
      $ref: `${SCHEMA_REF}Event`,
    });
    assert.deepEqual(doc.paths['/v1/blog/posts/{id}'].get.responses['200'].content['application/json'].schema, {
      $ref: `${SCHEMA_REF}Post`,
    });
    for (const field of ['created_at', 'updated_at', 'published_at'])
      assert.equal(schemas.Post.properties[field].format, 'date-time', field);
    assert.equal(schemas.AuditEvent.properties.occurred_at.format, 'date-time');
    assert.equal(schemas.Category.properties.created_at.format, 'date-time');
    assert.deepEqual([...schemas.ErrorEnvelope.properties.error.properties.code.enum].sort(), [...ERROR_CODES].sort());
    assert.ok(!JSON.stringify(doc).includes('"x-'), 'no custom x- keys');
    assert.ok(!JSON.stringify(doc).includes('offset-date-time'));
  });

  it('every operation has a unique camelCase operationId, a description, a described response for each status and its scope', () => {
    const ids = new Set<string>();
    for (const { id, op } of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${id} operationId`);
      assert.ok(!ids.has(op.operationId), `${op.operationId} unique`);
      ids.add(op.operationId);
      assert.ok(op.description?.length > 20, `${id} description`);
      for (const [status, response] of Object.entries(op.responses) as Array<[string, any]>)
        assert.ok(response.description && response.description !== 'Default Response', `${id} ${status}`);
    }
    assert.ok(
      [
        'createPost',
        'getPost',
        'listPosts',
        'updatePost',
        'publishPost',
        'unpublishPost',
        'deletePost',
        'listCategories',
        'createCategory',
        'uploadImage',
        'listImages',
        'getImage',
        'deleteImage',
        'getEvent',
        'listAuditEvents',
        'getMe',
      ].every((name) => ids.has(name)),
    );
    assert.deepEqual(doc.paths['/v1/blog/posts'].post.security, [{ bearerAuth: ['write_blog'] }]);
    assert.deepEqual(doc.paths['/v1/blog/posts/{id}/publish'].post.security, [{ bearerAuth: ['publish_blog'] }]);
    assert.deepEqual(doc.paths['/v1/me'].get.security, [{ bearerAuth: [] }]);
    for (const path of ['/v1/media/images', '/v1/media/images/{id}', '/v1/events/{id}'])
      assert.deepEqual(doc.paths[path].get.security, [{ bearerAuth: ['read_blog'] }], path);
    assert.ok(doc.paths['/v1/openapi.json'].get.responses['200'].description);
  });

  it('describes the Content API: its three operations under read_published, its scope and its cacheable answers', () => {
    const content = {
      '/v1/content/posts': 'listPublishedPosts',
      '/v1/content/posts/{id}': 'getPublishedPost',
      '/v1/content/categories': 'listPublishedCategories',
    };
    for (const [path, operationId] of Object.entries(content)) {
      const item = doc.paths[path];
      assert.deepEqual(Object.keys(item), ['get'], `${path}: GET only (its CORS preflight is not an operation)`);
      assert.equal(item.get.operationId, operationId);
      assert.deepEqual(item.get.tags, ['content']);
      assert.deepEqual(item.get.security, [{ bearerAuth: ['read_published'] }], path);
      assert.match(item.get.description, /Cache-Control public/);
      assert.ok(item.get.responses['403'], `${path} documents 403 insufficient_scope`);
    }
    const listParameters = doc.paths['/v1/content/posts'].get.parameters
      .filter((p: any) => p.in === 'query')
      .map((p: any) => p.name)
      .sort();
    assert.deepEqual(listParameters, ['category_id', 'cursor', 'limit', 'q']);
    assert.deepEqual(doc.paths['/v1/content/posts/{id}'].get.responses['200'].content['application/json'].schema, {
      $ref: `${SCHEMA_REF}Post`,
    });
    assert.deepEqual(doc.paths['/v1/content/posts'].get.responses['200'].content['application/json'].schema, {
      $ref: `${SCHEMA_REF}PostPage`,
    });
    assert.match(doc.components.securitySchemes.bearerAuth.description, /`read_published` \(the Content API/);
    assert.ok(doc.tags.some((tag: any) => tag.name === 'content'));
  });

  it('every operation takes Accept-Language, and every error answer names its message’s language', () => {
    const { parameters, headers } = doc.components;
    assert.equal(parameters.AcceptLanguage.in, 'header');
    assert.equal(parameters.AcceptLanguage.name, 'Accept-Language');
    assert.equal(parameters.AcceptLanguage.required, false);
    assert.deepEqual(headers.ContentLanguage.schema.enum, ['zh-TW', 'en']);
    for (const { id, op } of operations()) {
      assert.ok(
        op.parameters.some((p: any) => p.$ref === '#/components/parameters/AcceptLanguage'),
        `${id} takes Accept-Language`,
      );
      for (const [status, response] of Object.entries(op.responses) as Array<[string, any]>) {
        const named = response.headers?.['Content-Language']?.$ref === '#/components/headers/ContentLanguage';
        assert.equal(named, Number(status) >= 400, `${id} ${status}: Content-Language only on errors`);
      }
    }
    assert.match(doc.components.schemas.ErrorEnvelope.properties.error.properties.message.description, /English/);
  });

  it('states required and optional as the API does', () => {
    assert.equal(doc.paths['/v1/blog/posts/{id}/publish'].post.requestBody.required, false);
    assert.equal(doc.paths['/v1/blog/posts/{id}'].delete.requestBody.required, false);
    for (const path of ['/v1/blog/posts', '/v1/blog/categories']) {
      const header = doc.paths[path].post.parameters.find(
        (p: any) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
      );
      assert.equal(header.required, true, path);
    }
    assert.equal(
      doc.paths['/v1/blog/posts/{id}'].patch.parameters.find((p: any) => p.name === 'if-match').required ?? false,
      false,
    );
    assert.ok(doc.paths['/v1/blog/posts/{id}'].get.responses['304']);
    assert.ok(doc.paths['/v1/blog/posts/{id}'].patch.responses['412']);
    assert.ok(doc.paths['/v1/blog/posts/{id}'].patch.responses['200'].headers.ETag);
  });

  it('every named schema has a realistic example that its schema accepts', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    for (const [name, schema] of Object.entries(doc.components.schemas) as Array<[string, any]>) {
      assert.equal(schema.examples?.length, 1, `${name} has an example`);
      const validate = ajv.compile({ $ref: `doc#/components/schemas/${name}` });
      assert.ok(validate(schema.examples[0]), `${name}: ${JSON.stringify(validate.errors)}`);
      assert.ok(!JSON.stringify(schema.examples[0]).includes('"string"'), `${name} example is not a placeholder`);
    }
  });
});
