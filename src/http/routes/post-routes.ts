import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { ErrorCode } from '../../lib/error-catalogue.js';
import { errorResponses, GATED_ERRORS, IdempotencyHeader, IdParam } from '../../lib/schema-kit.js';
import { CreatePostBody, DeleteBody, PostListQuery, PostPageSchema, PostSchema, PublishBody, UpdatePostBody } from '../../modules/posts/index.js';
import { callerOf, versionsOf } from '../route-policy.js';
import { actorOf } from '../route-policy-actor.js';
import { sendCached } from '../send-cached.js';
import { replayInTransaction } from '../idempotency-hook.js';

type Id = { Params: Static<typeof IdParam> };
const security = [{ bearerAuth: [] }];
const tags = ['posts'];
const WRITE_ERRORS: ErrorCode[] = [
  ...GATED_ERRORS,
  'title_charset_unsupported',
  'cover_image_not_owned',
  'content_too_large',
  'duplicate_content',
  'idempotency_key_reused',
  'idempotency_in_progress',
  'quota_exceeded',
];

export function registerPostRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: Static<typeof CreatePostBody> }>(
    '/v1/blog/posts',
    {
      config: { policy: { scope: 'write_blog', idempotent: true } },
      schema: { tags, security, summary: 'Create a post (always a draft)', headers: IdempotencyHeader, body: CreatePostBody, response: { 201: PostSchema, ...errorResponses(WRITE_ERRORS) } },
    },
    async (request, reply) => {
      const replay = replayInTransaction(request, reply, 201);
      await ctx.posts.create(callerOf(request).store, request.body, actorOf(request), {
        response: (post) => replay.response(post, `/v1/blog/posts/${post.id}`),
      });
      return replay.send();
    },
  );

  app.get<{ Querystring: Static<typeof PostListQuery> }>(
    '/v1/blog/posts',
    {
      config: { policy: { scope: 'read_blog' } },
      schema: { tags, security, summary: 'List posts, newest first', querystring: PostListQuery, response: { 200: PostPageSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable']) } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      return sendCached(reply, await ctx.posts.list(caller.store, request.query, caller.application, versionsOf(request)));
    },
  );

  app.get<Id>(
    '/v1/blog/posts/:id',
    {
      config: { policy: { scope: 'read_blog' } },
      schema: { tags, security, summary: 'Get a post', params: IdParam, response: { 200: PostSchema, ...errorResponses([...GATED_ERRORS, 'not_found']) } },
    },
    async (request, reply) => sendCached(reply, await ctx.posts.get(callerOf(request).store, request.params.id, versionsOf(request))),
  );

  app.patch<Id & { Body: Static<typeof UpdatePostBody> }>(
    '/v1/blog/posts/:id',
    {
      config: { policy: { scope: 'write_blog' } },
      schema: { tags, security, summary: 'Update a post', params: IdParam, body: UpdatePostBody, response: { 200: PostSchema, ...errorResponses([...WRITE_ERRORS.filter((c) => !c.startsWith('idempotency') && c !== 'quota_exceeded'), 'not_found']) } },
    },
    async (request) => ctx.posts.update(callerOf(request).store, request.params.id, request.body, actorOf(request)),
  );

  app.post<Id & { Body: Static<typeof PublishBody> | undefined }>(
    '/v1/blog/posts/:id/publish',
    {
      config: { policy: { scope: 'publish_blog' } },
      schema: { tags, security, summary: 'Publish now, back-date, or schedule', params: IdParam, body: PublishBody, response: { 200: PostSchema, ...errorResponses([...GATED_ERRORS, 'not_found']) } },
    },
    async (request) => ctx.lifecycle.publish(callerOf(request).store, request.params.id, request.body?.published_at, actorOf(request)),
  );

  app.post<Id>(
    '/v1/blog/posts/:id/unpublish',
    {
      config: { policy: { scope: 'publish_blog' } },
      schema: { tags, security, summary: 'Return a post to draft', params: IdParam, response: { 200: PostSchema, ...errorResponses([...GATED_ERRORS, 'not_found']) } },
    },
    async (request) => ctx.lifecycle.unpublish(callerOf(request).store, request.params.id, actorOf(request)),
  );

  app.delete<Id & { Body: Static<typeof DeleteBody> | undefined }>(
    '/v1/blog/posts/:id',
    {
      config: { policy: { scope: 'write_blog' } },
      schema: {
        tags,
        security,
        summary: 'Delete a draft in two calls: without a body (409 confirmation_required with a token), then with the token',
        params: IdParam,
        body: DeleteBody,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses([...GATED_ERRORS, 'not_found', 'confirmation_required', 'post_is_published', 'post_has_product_links']) },
      },
    },
    async (request, reply) => {
      await ctx.lifecycle.delete(callerOf(request).store, request.params.id, request.body?.confirmation_token, actorOf(request));
      return reply.code(204).send();
    },
  );
}
