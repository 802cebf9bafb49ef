import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { ErrorEnvelopeSchema } from '../lib/schema-kit.js';
import { API_VERSION_DATE } from '../version.js';
import { finishDocument } from './openapi-document.js';
import type { RoutePolicy } from './route-policy.js';
import { webhookEventDocs } from './webhook-openapi.js';

const TAGS = [
  { name: 'identity', description: 'The calling key: its store, scopes, features, limits and quotas' },
  {
    name: 'posts',
    description:
      'Blog posts: drafts, publishing and scheduling, the two-step delete, conditional writes with ETag / If-Match',
  },
  { name: 'categories', description: 'A store’s category tree (when the store has categories)' },
  {
    name: 'content',
    description:
      'The Content API: published posts and categories for storefronts and browsers, with a `read_published` key a public page may hold; cacheable answers (ETag, Cache-Control public, Vary) and CORS for the store’s allowed origins',
  },
  { name: 'media', description: 'Images for covers and bodies (when the store has media upload)' },
  { name: 'audit', description: 'Who changed what, when: the store’s audit trail' },
  { name: 'events', description: 'Every change of the store in commit order, to keep a mirror in sync exactly' },
  {
    name: 'webhooks',
    description: 'Endpoints that receive signed events (Standard Webhooks), and the events themselves',
  },
  { name: 'meta', description: 'This description' },
];

const SCOPES_TEXT =
  'An API key issued by the service operator: `Authorization: Bearer svc_live_<key_id>_<secret>`. Each key has fixed scopes; an operation lists the scope it needs in its security requirement: `read_published` (the Content API, `/v1/content/…`, and `/v1/me` only: published posts and categories; a key with this scope alone may be embedded in a public web page, and is also limited per client address; implied by `read_blog`), `read_blog` (read posts, categories, images and the events feed; implied by `write_blog`), `write_blog`, `publish_blog`, `write_media`, `read_audit`, `manage_webhooks`. A key without it gets 403 insufficient_scope.';

/** Registers the OpenAPI 3.1 generator; must run before any route is added. */
export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  app.addSchema(ErrorEnvelopeSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Store Blog Content API',
        version: API_VERSION_DATE,
        description:
          'Manage the blog of one store: posts, categories, images, audit events and webhooks. Every call carries `Authorization: Bearer <API_KEY>`; errors use one envelope `{error: {code, message, details, request_id, retryable}}`. Retry only answers with `retryable: true`, after `Retry-After` when sent, with jittered back-off; creations take an `Idempotency-Key` so that a retry never creates twice.',
        contact: { name: 'Store Blog Content API reference', url: `${publicBaseUrl}/docs` },
        license: { name: 'Proprietary', url: `${publicBaseUrl}/docs` },
      },
      servers: [{ url: publicBaseUrl, description: 'This service' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'svc_live_<key_id>_<secret>',
            description: SCOPES_TEXT,
          },
        },
      },
      security: [{ bearerAuth: [] }],
      webhooks: webhookEventDocs(),
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // Only the /v1 interface is described; storefront pages and media files are not API. The
    // scope a route's policy requires is the scope of its security requirement.
    transform: ({ schema, url, route }) => {
      if (!url.startsWith('/v1')) return { schema: { ...(schema ?? {}), hide: true }, url } as never;
      const policy = (route.config as { policy?: RoutePolicy } | undefined)?.policy;
      const scopes = policy && policy.scope !== 'any' ? [policy.scope] : [];
      return { schema: { ...schema, security: [{ bearerAuth: scopes }] }, url } as never;
    },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: Record<string, unknown> }).openapiObject) as never,
  });
}
