import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { ErrorCode } from '../../lib/error-catalogue.js';
import { errorResponses, GATED_ERRORS, IdempotencyHeader, IdParam } from '../../lib/schema-kit.js';
import {
  CreatePostBody,
  DeleteBody,
  PostListQuery,
  PostPageSchema,
  PostSchema,
  PublishBody,
  UpdatePostBody,
} from '../../modules/posts/index.js';
import { callerOf, versionsOf } from '../route-policy.js';
import { actorOf } from '../route-policy-actor.js';
import { sendCached } from '../send-cached.js';
import { replayInTransaction } from '../idempotency-hook.js';
import { isNotModified } from '../http-validators.js';
import { etagOfStoredPost, ifMatchOf, postEtag, withEtag } from '../post-etag.js';

type Id = { Params: Static<typeof IdParam> };
/** Documents the optional precondition of a write on one post (read by ifMatchOf). */
const IfMatchHeader = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'The post’s ETag as last read: the call is refused with 412 precondition_failed, writing nothing, if the post changed since',
    }),
  ),
});
const IfNoneMatchHeader = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: 'The ETag of the copy you hold: 304 with no body while the post is unchanged' }),
  ),
});
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
      config: { policy: { scope: 'write_blog', idempotent: true, postBody: true } },
      // A replayed creation is answered from its stored JSON, before the handler.
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 201 && !reply.hasHeader('etag') && typeof payload === 'string')
          reply.header('ETag', etagOfStoredPost(payload));
        return payload;
      },
      schema: {
        tags,
        security,
        operationId: 'createPost',
        summary: 'Create a post (always a draft)',
        description:
          'Creates a draft. Requires an Idempotency-Key: a retry with the same key and body answers the first result (Idempotent-Replayed: true) instead of creating twice. The body is filtered by an allow-list; what was removed is listed in warnings. The same title and body within ten minutes answers 409 duplicate_content. Counts against the daily post quota.',
        headers: IdempotencyHeader,
        body: CreatePostBody,
        response: { 201: PostSchema, ...errorResponses(WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const replay = replayInTransaction(request, reply, 201);
      const post = await ctx.posts.create(callerOf(request).store, request.body, actorOf(request), {
        response: (post) => replay.response(post, `/v1/blog/posts/${post.id}`),
      });
      withEtag(reply, post);
      return replay.send();
    },
  );

  app.get<{ Querystring: Static<typeof PostListQuery> }>(
    '/v1/blog/posts',
    {
      config: { policy: { scope: 'read_blog' } },
      schema: {
        tags,
        security,
        operationId: 'listPosts',
        summary: 'List posts, newest first',
        description:
          'Posts of the store, newest first, without body_html, one page at a time: pass meta.next_cursor as cursor until it is null. Filter by status (derived from published_at and the current time) or category.',
        querystring: PostListQuery,
        response: { 200: PostPageSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable']) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      return sendCached(
        reply,
        await ctx.posts.list(caller.store, request.query, caller.application, versionsOf(request)),
      );
    },
  );

  app.get<Id>(
    '/v1/blog/posts/:id',
    {
      config: { policy: { scope: 'read_blog' } },
      schema: {
        tags,
        security,
        operationId: 'getPost',
        summary: 'Get a post',
        description:
          'One post with its body. The answer carries an ETag; send it as If-None-Match to get 304 with no body while the post is unchanged.',
        params: IdParam,
        headers: IfNoneMatchHeader,
        response: { 200: PostSchema, ...errorResponses([...GATED_ERRORS, 'not_found']) },
      },
    },
    async (request, reply) => {
      const post = await ctx.posts.get(callerOf(request).store, request.params.id, versionsOf(request));
      const etag = postEtag(post);
      reply.header('ETag', etag);
      if (isNotModified(request.headers, etag, null)) return reply.code(304).send();
      return sendCached(reply, post);
    },
  );

  app.patch<Id & { Body: Static<typeof UpdatePostBody> }>(
    '/v1/blog/posts/:id',
    {
      config: { policy: { scope: 'write_blog', postBody: true } },
      schema: {
        tags,
        security,
        operationId: 'updatePost',
        summary: 'Update a post',
        description:
          'Changes the fields sent (at least one); the others stay. Send the ETag you read as If-Match to be refused with 412 precondition_failed, writing nothing, if someone changed the post since.',
        params: IdParam,
        headers: IfMatchHeader,
        body: UpdatePostBody,
        response: {
          200: PostSchema,
          ...errorResponses([
            ...WRITE_ERRORS.filter((c) => !c.startsWith('idempotency') && c !== 'quota_exceeded'),
            'not_found',
            'precondition_failed',
          ]),
        },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await ctx.posts.update(
          callerOf(request).store,
          request.params.id,
          request.body,
          actorOf(request),
          ifMatchOf(request),
        ),
      ),
  );

  app.post<Id & { Body: Static<typeof PublishBody> | undefined }>(
    '/v1/blog/posts/:id/publish',
    {
      config: { policy: { scope: 'publish_blog' } },
      schema: {
        tags,
        security,
        operationId: 'publishPost',
        summary: 'Publish now, back-date, or schedule',
        description:
          'Without a body or with published_at null or in the past: published now (or back-dated). With a future published_at: scheduled, and published at that instant. Publishing a post already in that state changes nothing. Accepts If-Match.',
        params: IdParam,
        headers: IfMatchHeader,
        body: PublishBody,
        response: { 200: PostSchema, ...errorResponses([...GATED_ERRORS, 'not_found', 'precondition_failed']) },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await ctx.lifecycle.publish(
          callerOf(request).store,
          request.params.id,
          request.body?.published_at,
          actorOf(request),
          ifMatchOf(request),
        ),
      ),
  );

  app.post<Id>(
    '/v1/blog/posts/:id/unpublish',
    {
      config: { policy: { scope: 'publish_blog' } },
      schema: {
        tags,
        security,
        operationId: 'unpublishPost',
        summary: 'Return a post to draft',
        description: 'A published or scheduled post returns to draft; a draft is answered unchanged. Accepts If-Match.',
        params: IdParam,
        headers: IfMatchHeader,
        response: { 200: PostSchema, ...errorResponses([...GATED_ERRORS, 'not_found', 'precondition_failed']) },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await ctx.lifecycle.unpublish(callerOf(request).store, request.params.id, actorOf(request), ifMatchOf(request)),
      ),
  );

  app.delete<Id & { Body: Static<typeof DeleteBody> | undefined }>(
    '/v1/blog/posts/:id',
    {
      config: { policy: { scope: 'write_blog' } },
      schema: {
        tags,
        security,
        operationId: 'deletePost',
        summary:
          'Delete a draft in two calls: without a body (409 confirmation_required with a token), then with the token',
        description:
          'Deletes a draft in two calls. The first, without a body, answers 409 confirmation_required with a confirmation_token in details (valid 5 minutes, for this post and this key). The second sends {confirmation_token} and answers 204. Published or scheduled posts are refused (409 post_is_published): unpublish first. Accepts If-Match on either call.',
        params: IdParam,
        headers: IfMatchHeader,
        body: DeleteBody,
        response: {
          204: { type: 'null', description: 'Deleted' },
          ...errorResponses([
            ...GATED_ERRORS,
            'not_found',
            'confirmation_required',
            'post_is_published',
            'post_has_product_links',
            'precondition_failed',
          ]),
        },
      },
    },
    async (request, reply) => {
      await ctx.lifecycle.delete(
        callerOf(request).store,
        request.params.id,
        request.body?.confirmation_token,
        actorOf(request),
        ifMatchOf(request),
      );
      return reply.code(204).send();
    },
  );
}
