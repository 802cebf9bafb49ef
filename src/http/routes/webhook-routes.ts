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
  UpdateWebhookBody,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookIdParam,
} from '../../modules/webhooks/index.js';
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
      schema: { tags, security, summary: 'Create a webhook endpoint (at most 10 per store); the answer carries its signing secret, shown only here', body: CreateWebhookBody, response: { 201: WebhookEndpointWithSecretSchema, ...errorResponses(ERRORS) } },
    },
    async (request, reply) => reply.code(201).send(await ctx.webhooks.create(callerOf(request).store, request.body, actorOf(request))),
  );

  app.get(
    '/v1/webhooks',
    {
      config: policy,
      schema: { tags, security, summary: 'All webhook endpoints of the store at once, oldest first', response: { 200: WebhookEndpointListSchema, ...errorResponses(ERRORS) } },
    },
    async (request) => ctx.webhooks.list(callerOf(request).store),
  );

  app.get<Id>(
    '/v1/webhooks/:id',
    {
      config: policy,
      schema: { tags, security, summary: 'Get a webhook endpoint', params: WebhookIdParam, response: { 200: WebhookEndpointSchema, ...errorResponses(ONE_ERRORS) } },
    },
    async (request) => ctx.webhooks.get(callerOf(request).store, request.params.id),
  );

  app.patch<Id & { Body: Static<typeof UpdateWebhookBody> }>(
    '/v1/webhooks/:id',
    {
      config: policy,
      schema: { tags, security, summary: 'Change the url, events, description or enabled', params: WebhookIdParam, body: UpdateWebhookBody, response: { 200: WebhookEndpointSchema, ...errorResponses(ONE_ERRORS) } },
    },
    async (request) => ctx.webhooks.update(callerOf(request).store, request.params.id, request.body, actorOf(request)),
  );

  app.delete<Id>(
    '/v1/webhooks/:id',
    {
      config: policy,
      schema: { tags, security, summary: 'Delete a webhook endpoint and its deliveries', params: WebhookIdParam, response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(ONE_ERRORS) } },
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
      schema: { tags, security, summary: 'A new signing secret; the old one keeps signing beside it for 24 hours', params: WebhookIdParam, response: { 200: WebhookEndpointWithSecretSchema, ...errorResponses(ONE_ERRORS) } },
    },
    async (request) => ctx.webhooks.rotateSecret(callerOf(request).store, request.params.id, actorOf(request)),
  );

  app.post<Id>(
    '/v1/webhooks/:id/test',
    {
      config: policy,
      schema: { tags, security, summary: 'Send a webhook.test event to this endpoint', params: WebhookIdParam, response: { 202: DeliverySchema, ...errorResponses(ONE_ERRORS) } },
    },
    async (request, reply) => reply.code(202).send(await ctx.webhooks.sendTest(callerOf(request).store, request.params.id)),
  );

  app.get<Id & { Querystring: Static<typeof DeliveryListQuery> }>(
    '/v1/webhooks/:id/deliveries',
    {
      config: policy,
      schema: { tags, security, summary: 'Deliveries to this endpoint, newest first', params: WebhookIdParam, querystring: DeliveryListQuery, response: { 200: DeliveryPageSchema, ...errorResponses(ONE_ERRORS) } },
    },
    async (request) => {
      const caller = callerOf(request);
      return ctx.webhooks.deliveries(caller.store, request.params.id, request.query, caller.application);
    },
  );
}
