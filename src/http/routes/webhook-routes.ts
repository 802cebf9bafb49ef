import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { ErrorCode } from '../../lib/error-catalogue.js';
import { errorResponses, GATED_ERRORS } from '../../lib/schema-kit.js';
import {
  CreateWebhookBody,
  DeliveryListQuery,
  DeliveryPageSchema,
  DeliverySchema,
  TestWebhookBody,
  UpdateWebhookBody,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookIdParam,
} from '../../modules/webhooks/index.js';
import type { WebhookEventType } from '../../modules/events/index.js';
import type { RoutePolicy } from '../route-policy.js';
import { callerOf } from '../route-policy.js';
import { actorOf } from '../route-policy-actor.js';

type Id = { Params: Static<typeof WebhookIdParam> };
const security = [{ bearerAuth: [] }];
const tags = ['webhooks'];
const policy: { policy: RoutePolicy } = { policy: { scope: 'manage_webhooks', feature: 'webhooks' } };
const ERRORS: ErrorCode[] = [...GATED_ERRORS, 'feature_unavailable'];
const ONE_ERRORS: ErrorCode[] = [...ERRORS, 'not_found'];

export function registerWebhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: Static<typeof CreateWebhookBody> }>(
    '/v1/webhooks',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'createWebhookEndpoint',
        summary:
          'Create a webhook endpoint (at most 10 per store); the answer carries its signing secret, shown only here',
        description:
          'Subscribes an https endpoint to event types. The answer carries the signing secret (Standard Webhooks), shown only here: store it to verify deliveries.',
        body: CreateWebhookBody,
        response: { 201: WebhookEndpointWithSecretSchema, ...errorResponses(ERRORS) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await ctx.webhooks.create(callerOf(request).store, request.body, actorOf(request))),
  );

  app.get(
    '/v1/webhooks',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'listWebhookEndpoints',
        summary: 'All webhook endpoints of the store at once, oldest first',
        description: 'Every webhook endpoint of the store (at most 10), oldest first, without secrets.',
        response: { 200: WebhookEndpointListSchema, ...errorResponses(ERRORS) },
      },
    },
    async (request) => ctx.webhooks.list(callerOf(request).store),
  );

  app.get<Id>(
    '/v1/webhooks/:id',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        description:
          'One webhook endpoint, without its secret; disabled_reason says why the service disabled it, if it did.',
        params: WebhookIdParam,
        response: { 200: WebhookEndpointSchema, ...errorResponses(ONE_ERRORS) },
      },
    },
    async (request) => ctx.webhooks.get(callerOf(request).store, request.params.id),
  );

  app.patch<Id & { Body: Static<typeof UpdateWebhookBody> }>(
    '/v1/webhooks/:id',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'updateWebhookEndpoint',
        summary: 'Change the url, events, description or enabled',
        description:
          'Changes the fields sent. Setting enabled to true re-enables an endpoint the service disabled and clears disabled_reason.',
        params: WebhookIdParam,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpointSchema, ...errorResponses(ONE_ERRORS) },
      },
    },
    async (request) => ctx.webhooks.update(callerOf(request).store, request.params.id, request.body, actorOf(request)),
  );

  app.delete<Id>(
    '/v1/webhooks/:id',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint and its deliveries',
        description: 'Deletes the endpoint and its pending deliveries; nothing more is sent to it.',
        params: WebhookIdParam,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(ONE_ERRORS) },
      },
    },
    async (request, reply) => {
      await ctx.webhooks.delete(callerOf(request).store, request.params.id, actorOf(request));
      return reply.code(204).send();
    },
  );

  app.post<Id>(
    '/v1/webhooks/:id/rotate-secret',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'rotateWebhookSecret',
        summary: 'A new signing secret; the old one keeps signing beside it for 24 hours',
        description:
          'Issues a new signing secret, shown only in this answer. For 24 hours deliveries are signed with both secrets, so receivers can switch without missing an event.',
        params: WebhookIdParam,
        response: { 200: WebhookEndpointWithSecretSchema, ...errorResponses(ONE_ERRORS) },
      },
    },
    async (request) => ctx.webhooks.rotateSecret(callerOf(request).store, request.params.id, actorOf(request)),
  );

  app.post<Id & { Body: Static<typeof TestWebhookBody> | undefined }>(
    '/v1/webhooks/:id/test',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'sendTestWebhook',
        summary: 'Send a webhook.test event, or a sample of a content event, to this endpoint',
        description:
          "Queues a webhook.test event (or, with `type`, a sample of that content event type whose data is the store's newest resource of that kind) for this endpoint only and answers its delivery; watch it in the deliveries list. Neither is in the events feed. A sample for a store with no resource of that kind answers 422.",
        params: WebhookIdParam,
        body: TestWebhookBody,
        response: { 202: DeliverySchema, ...errorResponses(ONE_ERRORS) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await ctx.webhooks.sendTest(
            callerOf(request).store,
            request.params.id,
            request.body?.type as WebhookEventType | undefined,
          ),
        ),
  );

  app.get<Id & { Querystring: Static<typeof DeliveryListQuery> }>(
    '/v1/webhooks/:id/deliveries',
    {
      config: policy,
      schema: {
        tags,
        security,
        operationId: 'listWebhookDeliveries',
        summary: 'Deliveries to this endpoint, newest first',
        description:
          'Delivery attempts to this endpoint, newest first, one page at a time: status, attempts and the last answer’s status.',
        params: WebhookIdParam,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryPageSchema, ...errorResponses(ONE_ERRORS) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ctx.webhooks.deliveries(caller.store, request.params.id, request.query, caller.application);
    },
  );
}
