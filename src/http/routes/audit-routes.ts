import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { AuditPageSchema, AuditQuerySchema } from '../../modules/audit/index.js';
import { errorResponses, GATED_ERRORS } from '../../lib/schema-kit.js';
import { callerOf } from '../route-policy.js';

export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: Static<typeof AuditQuerySchema> }>(
    '/v1/audit/events',
    {
      config: { policy: { scope: 'read_audit' } },
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEvents',
        summary: 'List audit events, newest first',
        description:
          'Every change to the store’s content and webhooks, newest first, filtered by action, resource, key or time range, one page at a time (follow meta.next_cursor). Events are kept for the retention period in docs.',
        security: [{ bearerAuth: [] }],
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errorResponses(GATED_ERRORS) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ctx.audit.list(caller.store, request.query, caller.application);
    },
  );
}
