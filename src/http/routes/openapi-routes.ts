import type { FastifyInstance } from 'fastify';
import { errorResponses, PIPELINE_ERRORS } from '../../lib/schema-kit.js';

export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get(
    '/v1/openapi.json',
    {
      config: { policy: { scope: 'any', tenantGate: false } },
      schema: {
        tags: ['meta'],
        operationId: 'getOpenApiDocument',
        summary: 'This description (OpenAPI 3.1), generated from the schemas that validate requests',
        description:
          'This OpenAPI 3.1 document. It is generated from the same schemas that validate requests and shape answers, so it cannot drift from the service. /docs renders it. Every key may read it but one holding read_published alone (a key a public page may hold: 403 insufficient_scope); the same document is public at /docs/openapi.json.',
        security: [{ bearerAuth: [] }],
        response: {
          200: { description: 'This OpenAPI 3.1 document', type: 'object' },
          ...errorResponses(PIPELINE_ERRORS),
        },
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
}
