import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { ErrorCode } from '../../lib/error-catalogue.js';
import { errorResponses, GATED_ERRORS } from '../../lib/schema-kit.js';
import {
  DeliveryDetailSchema,
  DeliveryIdParam,
  DeliverySchema,
  REPLAY_MAX_EVENTS,
  ReplayBody,
  ReplayResultSchema,
  WebhookIdParam,
} from '../../modules/webhooks/index.js';
import type { RoutePolicy } from '../route-policy.js';
import { callerOf } from '../route-policy.js';

const security = [{ bearerAuth: [] }];
const tags = ['webhooks'];
const policy: { policy: RoutePolicy } = { policy: { scope: 'manage_webhooks', feature: 'webhooks' } };
const ONE_ERRORS: ErrorCode[] = [...GATED_ERRORS, 'feature_unavailable', 'not_found'];

export function registerWebhookRecoveryRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: Static<typeof DeliveryIdParam> }>(
    '/v1/webhooks/:id/deliveries/:delivery_id',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'getWebhookDelivery',
        summary: 'One delivery with every attempt: time, duration, answer or error',
        description:
          'A delivery and its attempts, oldest first: when each started, how long it took, the answer’s status and first 1 KB, or why no answer arrived. An attempt being sent shows as in_progress; one cut short by a stopped process as interrupted.',
        params: DeliveryIdParam,
        response: { 200: DeliveryDetailSchema, ...errorResponses(ONE_ERRORS) },
      },
    },
    async (request) => ctx.deliveryRecovery.get(callerOf(request).store, request.params.id, request.params.delivery_id),
  );

  app.post<{ Params: Static<typeof DeliveryIdParam> }>(
    '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery’s event again now, as a new delivery',
        description:
          'For a delivery that succeeded or failed (a pending one is still being tried: 409 delivery_not_retryable), queues a new delivery of the same event to this endpoint, due now, with the same webhook-id and a fresh retry schedule; its retry_of names this delivery. The endpoint must be enabled.',
        params: DeliveryIdParam,
        response: { 202: DeliverySchema, ...errorResponses([...ONE_ERRORS, 'delivery_not_retryable']) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await ctx.deliveryRecovery.retry(callerOf(request).store, request.params.id, request.params.delivery_id)),
  );

  app.post<{ Params: Static<typeof WebhookIdParam>; Body: Static<typeof ReplayBody> }>(
    '/v1/webhooks/:id/replay',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'replayWebhookEvents',
        summary: `Send the events of a time range again (at most ${REPLAY_MAX_EVENTS})`,
        description: `Queues a new delivery, due now, of every event still in the events feed (GET /v1/events) recorded from since to until (default now) whose type the endpoint subscribes to and types names, e.g. after an outage longer than the retry window. At most ${REPLAY_MAX_EVENTS} events per replay (more: 422, split the range); receivers de-duplicate by webhook-id and order by the feed, not by arrival. The endpoint must be enabled.`,
        params: WebhookIdParam,
        body: ReplayBody,
        response: { 202: ReplayResultSchema, ...errorResponses([...ONE_ERRORS, 'delivery_not_retryable']) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await ctx.deliveryRecovery.replay(callerOf(request).store, request.params.id, request.body)),
  );
}
