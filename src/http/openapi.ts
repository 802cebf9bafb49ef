import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { ErrorEnvelopeSchema } from '../lib/schema-kit.js';
import { API_VERSION_DATE } from '../version.js';
import { webhookEventDocs } from './webhook-openapi.js';

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
          'Manage the blog of one store: posts, categories, images, audit events. Every call carries `Authorization: Bearer <API_KEY>`; errors use one envelope `{error: {code, message, details, request_id, retryable}}`.',
      },
      servers: [{ url: publicBaseUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'svc_live_<key_id>_<secret>' } } },
      security: [{ bearerAuth: [] }],
      webhooks: webhookEventDocs(),
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // Only the /v1 interface is described; storefront pages and media files are not API.
    transform: ({ schema, url }) => ({ schema: url.startsWith('/v1') ? schema : { ...(schema ?? {}), hide: true }, url }) as never,
  });
}
