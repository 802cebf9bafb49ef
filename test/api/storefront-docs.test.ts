// /docs: the reference page, its locally served assets, and the keyless OpenAPI document.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('/docs reference for integrators', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(sqlite);
  });
  after(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

  it('serves an HTML page that loads Swagger UI from this service only, under its own CSP', async () => {
    const res = await get('/docs');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 2);
    for (const [, attrs, inline] of scripts) {
      assert.match(attrs, /^ src="\/docs\/assets\/[a-z-]+\.js\?v=[0-9.]+"$/, 'local files only');
      assert.equal(inline, '', 'no inline script');
    }
    assert.ok(!/https?:\/\//.test(res.body.replace(/<noscript>[\s\S]*<\/noscript>/, '')), 'no CDN or other host');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.ok(!csp.includes('unsafe-'));
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const slash = await get('/docs/');
    assert.equal(slash.statusCode, 301);
    assert.equal(slash.headers.location, '/docs');
  });

  it('serves the assets from node_modules with their types, validators and gzip; nothing else', async () => {
    for (const [name, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['docs-init.js', 'text/javascript; charset=utf-8'],
      ['docs.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
    ]) {
      const res = await get(`/docs/assets/${name}`);
      assert.equal(res.statusCode, 200, name);
      assert.equal(res.headers['content-type'], type);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'public, max-age=86400');
      assert.equal((await get(`/docs/assets/${name}`, { 'if-none-match': String(res.headers.etag) })).statusCode, 304);
    }
    const plain = await get('/docs/assets/swagger-ui-bundle.js');
    assert.ok(plain.body.includes('SwaggerUIBundle'));
    const zipped = await get('/docs/assets/swagger-ui-bundle.js', { 'accept-encoding': 'gzip, br' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.ok(zipped.rawPayload.length < plain.rawPayload.length / 2);
    assert.ok(gunzipSync(zipped.rawPayload).equals(plain.rawPayload));
    for (const name of ['package.json', '..%2Fpackage.json', 'index.html', 'swagger-ui-bundle.js.map']) {
      assert.equal((await get(`/docs/assets/${name}`)).statusCode, 404, name);
    }
  });

  it('turns on Try it out and Authorize for a bearer key, which is never stored by the page', async () => {
    const init = (await get('/docs/assets/docs-init.js')).body;
    assert.ok(!init.includes('supportedSubmitMethods'), 'every method can be tried');
    assert.match(init, /persistAuthorization: false/);
    assert.ok(!(await get('/docs/assets/docs.css')).body.includes('authoriz'), 'the Authorize controls are not hidden');
    const doc = (await get('/docs/openapi.json')).json();
    assert.deepEqual(doc.components.securitySchemes.bearerAuth.type, 'http');
    assert.deepEqual(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
    // Try it out sends to the document's server: this service's public address.
    assert.deepEqual(
      doc.servers.map((s: { url: string }) => s.url),
      [t.config.publicBaseUrl],
    );
    assert.match(String((await get('/docs')).headers['content-security-policy']), /connect-src 'self'/);
  });

  it('serves the same OpenAPI document as /v1/openapi.json without a key', async () => {
    const { key } = await t.tenant();
    const open = await get('/docs/openapi.json');
    assert.equal(open.statusCode, 200);
    assert.match(String(open.headers['content-type']), /^application\/json/);
    const withKey = await t.request({ method: 'GET', url: '/v1/openapi.json', key });
    assert.deepEqual(open.json(), withKey.json());
    assert.ok(Object.keys(open.json().paths).includes('/v1/blog/posts'));
    assert.ok(
      Object.keys(open.json().paths).every((p: string) => p.startsWith('/v1')),
      '/docs and /s/ are not API',
    );
    assert.equal((await get('/docs/openapi.json', { 'if-none-match': String(open.headers.etag) })).statusCode, 304);
    assert.equal((await get('/v1/openapi.json')).statusCode, 401, 'the /v1 document still needs a key');
  });
});
