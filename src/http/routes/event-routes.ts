import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, GATED_ERRORS } from '../../lib/schema-kit.js';
import { EventIdParam, EventPageSchema, EventQuery, EventSchema } from '../../modules/events/index.js';
import { callerOf } from '../route-policy.js';

export function registerEventRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: Static<typeof EventQuery> }>(
    '/v1/events',
    {
      config: { policy: { scope: 'read_blog' } },
      schema: {
        tags: ['events'],
        operationId: 'listEvents',
        summary: 'The store’s events in commit order, to keep a mirror in sync',
        description:
          'Every change to the store’s posts, categories and images (deletions included), oldest first, in the order they committed, with the same objects webhooks deliver plus the store’s handle and a per-store sequence. ' +
          'Follow meta.next_cursor (always present, also on an empty page) with `after`: a consumer that does so sees every event exactly once. ' +
          'Events are kept EVENT_RETENTION_DAYS days (at least 30); a cursor older than that answers 410 cursor_expired.',
        security: [{ bearerAuth: [] }],
        querystring: EventQuery,
        response: { 200: EventPageSchema, ...errorResponses([...GATED_ERRORS, 'cursor_expired']) },
      },
    },
    async (request) => ctx.events.list(callerOf(request).store, request.query),
  );

  app.get<{ Params: Static<typeof EventIdParam> }>(
    '/v1/events/:id',
    {
      config: { policy: { scope: 'read_blog' } },
      schema: {
        tags: ['events'],
        operationId: 'getEvent',
        summary: 'Get one event of the feed by its id',
        description:
          'The event exactly as GET /v1/events lists it, found by its id: the webhook-id header of a delivery, so a receiver can check a delivery against the feed or fetch an event it missed. ' +
          'An unknown id, another store’s event, a webhook.test event and an event past the feed’s retention answer 404 not_found.',
        security: [{ bearerAuth: [] }],
        params: EventIdParam,
        response: { 200: EventSchema, ...errorResponses([...GATED_ERRORS, 'not_found']) },
      },
    },
    async (request) => ctx.events.get(callerOf(request).store, request.params.id),
  );
}
