// /docs: the API reference for integrators, rendered in the browser by Swagger UI from the
// same OpenAPI document as GET /v1/openapi.json, with "Try it out" and Authorize. Everything is
// served from this service (node_modules/swagger-ui-dist), nothing from a CDN. The document
// describes the public interface only, so /docs/openapi.json needs no key. Why these routes and
// not @fastify/swagger-ui: docs/architecture.md.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/api-error.js';
import { etagOf, isNotModified } from '../http-validators.js';

const gzipAsync = promisify(gzip);
const require = createRequire(import.meta.url);
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;

/** Swagger UI needs no inline script or style; its icons are data: images in its stylesheet. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// "Try it out" and Authorize (a bearer key) are on. Requests go to the document's server, this
// service's PUBLIC_BASE_URL: the page's own origin when it is read there, which connect-src
// 'self' allows. The key typed into Authorize stays in the page's memory (persistAuthorization
// off: never written to localStorage) and is sent only to this service.
const INIT_SCRIPT = `window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/docs/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    persistAuthorization: false,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    validatorUrl: null,
  });
});
`;

// Local adjustments to Swagger UI's stylesheet, served as a file: the CSP allows no inline style.
const DOCS_CSS = `.swagger-ui .info{margin:24px 0}
`;

const v = encodeURIComponent(SWAGGER_UI_VERSION);
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Store Blog Content API reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png?v=${v}">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css?v=${v}">
<link rel="stylesheet" href="/docs/assets/docs.css?v=${v}">
</head>
<body>
<div id="reference"></div>
<noscript><p>This reference needs JavaScript. The OpenAPI 3.1 description itself is at <a href="/docs/openapi.json">/docs/openapi.json</a>.</p></noscript>
<script src="/docs/assets/swagger-ui-bundle.js?v=${v}"></script>
<script src="/docs/assets/docs-init.js?v=${v}"></script>
</body>
</html>
`;

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer | null;
  etag: string;
}

/** The only files served under /docs/assets: an allow-list, so no path ever reaches the disk. */
const ASSET_SOURCES: Record<string, { type: string; load: () => Promise<Buffer> }> = {
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    load: () => readFile(join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js')),
  },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', load: () => readFile(join(SWAGGER_UI_DIR, 'swagger-ui.css')) },
  'favicon-32x32.png': { type: 'image/png', load: () => readFile(join(SWAGGER_UI_DIR, 'favicon-32x32.png')) },
  'docs-init.js': { type: 'text/javascript; charset=utf-8', load: async () => Buffer.from(INIT_SCRIPT, 'utf8') },
  'docs.css': { type: 'text/css; charset=utf-8', load: async () => Buffer.from(DOCS_CSS, 'utf8') },
};

const assets = new Map<string, Promise<Asset>>();

function loadAsset(name: string): Promise<Asset> {
  let asset = assets.get(name);
  if (!asset) {
    const source = ASSET_SOURCES[name];
    asset = (async () => {
      const body = await source.load();
      const gzipped = source.type.startsWith('text/') ? await gzipAsync(body) : null;
      return { type: source.type, body, gzipped, etag: etagOf(body) };
    })();
    // A failed read is retried on the next request rather than cached.
    asset.catch(() => assets.delete(name));
    assets.set(name, asset);
  }
  return asset;
}

function acceptsGzip(request: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}

function docsHeaders(reply: FastifyReply): FastifyReply {
  reply.removeHeader('X-Svc-Api-Version');
  return reply
    .header('Content-Security-Policy', DOCS_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin')
    .header('X-Frame-Options', 'DENY');
}

export function registerDocsRoutes(app: FastifyInstance): void {
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
    docsHeaders(reply).header('Cache-Control', 'public, no-cache').type('text/html; charset=utf-8').send(DOCS_PAGE),
  );

  // Routes match exactly (no trailing-slash folding), so the common typo gets a redirect.
  app.get('/docs/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs', 301));

  let documentJson: { body: string; etag: string } | null = null;
  app.get('/docs/openapi.json', { schema: { hide: true } }, async (request, reply) => {
    // Routes are fixed once the app is ready, so the document is built once.
    documentJson ??= (() => {
      const body = JSON.stringify(app.swagger());
      return { body, etag: etagOf(body) };
    })();
    docsHeaders(reply)
      .header('Cache-Control', 'public, no-cache')
      .header('ETag', documentJson.etag)
      .header('Access-Control-Allow-Origin', '*')
      .type('application/json; charset=utf-8');
    if (isNotModified(request.headers, documentJson.etag, null)) return reply.code(304).send();
    return reply.send(documentJson.body);
  });

  app.get<{ Params: { name: string } }>('/docs/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params;
    if (!Object.hasOwn(ASSET_SOURCES, name)) throw new ApiError('not_found');
    const asset = await loadAsset(name);
    // Asset urls carry the Swagger UI version, so an upgrade changes the url.
    docsHeaders(reply)
      .header('Cache-Control', 'public, max-age=86400')
      .header('ETag', asset.etag)
      .header('Vary', 'Accept-Encoding')
      .type(asset.type);
    if (isNotModified(request.headers, asset.etag, null)) return reply.code(304).send();
    if (asset.gzipped && acceptsGzip(request)) return reply.header('Content-Encoding', 'gzip').send(asset.gzipped);
    return reply.send(asset.body);
  });
}
