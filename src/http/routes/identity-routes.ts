import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { IdentitySchema } from '../../modules/identity/index.js';
import { errorResponses, PIPELINE_ERRORS } from '../../lib/schema-kit.js';
import { callerOf, versionsOf } from '../route-policy.js';
import { sendCached } from '../send-cached.js';

export function registerIdentityRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/v1/me',
    {
      config: { policy: { scope: 'any', publishable: true, tenantGate: false } },
      schema: {
        tags: ['identity'],
        operationId: 'getMe',
        summary: 'Identity, scopes, features, limits, quotas and rate limits of the calling key',
        description:
          'Who is calling: the key’s store, scopes and expiry, the store’s features and limits, today’s quotas (Taipei day) and the rate limits. Read it once at start and branch on features and limits instead of on errors.',
        security: [{ bearerAuth: [] }],
        response: { 200: IdentitySchema, ...errorResponses(PIPELINE_ERRORS) },
      },
    },
    async (request, reply) => sendCached(reply, await ctx.identity.describe(callerOf(request), versionsOf(request))),
  );
}
