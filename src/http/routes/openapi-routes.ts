import type { FastifyInstance } from 'fastify';
import { errorResponses, PIPELINE_ERRORS } from '../../lib/schema-kit.js';

export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get(
    '/v1/openapi.json',
    {
      config: { policy: { scope: 'any', tenantGate: false } },
      schema: {
        tags: ['meta'],
        summary: 'This description (OpenAPI 3.1), generated from the schemas that validate requests',
        security: [{ bearerAuth: [] }],
        response: errorResponses(PIPELINE_ERRORS),
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
}
