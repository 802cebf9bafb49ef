// The Content API (docs/content-api.md): published posts and the categories of a store, for
// storefronts and browsers, with a `read_published` key a public page may hold. Answers are
// cacheable (the public cache policy, src/http/public-cache.ts) and carry CORS headers for the
// store's allowed origins (src/http/content-cors.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, GATED_ERRORS, IdParam } from '../../lib/schema-kit.js';
import { CategoryListSchema } from '../../modules/categories/index.js';
import { ContentPostListQuery, PostPageSchema, PostSchema } from '../../modules/posts/index.js';
import { registerContentCors } from '../content-cors.js';
import { postEtag } from '../post-etag.js';
import { sendPublic } from '../public-cache.js';
import { callerOf, versionsOf } from '../route-policy.js';

const security = [{ bearerAuth: [] }];
const tags = ['content'];
const JSON_TYPE = 'application/json; charset=utf-8';
const CACHING =
  'Cacheable: Cache-Control public with max-age and stale-while-revalidate, an ETag (send it as If-None-Match for 304 with no body), Vary: Origin, Authorization.';

export const CONTENT_PATHS = ['/v1/content/posts', '/v1/content/posts/:id', '/v1/content/categories'];

export function registerContentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const cors = registerContentCors(app, ctx, CONTENT_PATHS);
  const policy = ctx.config.publicCache;
  const send = (request: FastifyRequest, reply: FastifyReply, value: object, etag?: string) =>
    sendPublic(request, reply.type(JSON_TYPE), policy, {
      body: reply.serialize(value) as string,
      etag,
    });
  const onSend = cors.onSend;

  app.get<{ Querystring: Static<typeof ContentPostListQuery> }>(
    '/v1/content/posts',
    {
      config: { policy: { scope: 'read_published' } },
      onSend,
      schema: {
        tags,
        security,
        operationId: 'listPublishedPosts',
        summary: 'Published posts, newest published first',
        description: `Only published posts (never drafts or scheduled ones), newest publication first, without body_html, one page at a time: pass meta.next_cursor as cursor until it is null. category_id and q filter as on the management list. ${CACHING}`,
        querystring: ContentPostListQuery,
        response: { 200: PostPageSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable']) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const page = await ctx.posts.listPublished(caller.store, request.query, caller.application, versionsOf(request));
      return send(request, reply, page);
    },
  );

  app.get<{ Params: Static<typeof IdParam> }>(
    '/v1/content/posts/:id',
    {
      config: { policy: { scope: 'read_published' } },
      onSend,
      schema: {
        tags,
        security,
        operationId: 'getPublishedPost',
        summary: 'A published post',
        description: `One published post with its body. A draft, a scheduled post or an unknown id answers 404 not_found. ${CACHING}`,
        params: IdParam,
        response: { 200: PostSchema, ...errorResponses([...GATED_ERRORS, 'not_found']) },
      },
    },
    async (request, reply) => {
      const post = await ctx.posts.getPublished(callerOf(request).store, request.params.id, versionsOf(request));
      return send(request, reply, post, postEtag(post));
    },
  );

  app.get(
    '/v1/content/categories',
    {
      config: { policy: { scope: 'read_published', feature: 'blog_categories' } },
      onSend,
      schema: {
        tags,
        security,
        operationId: 'listPublishedCategories',
        summary: 'The store’s categories, ordered by id',
        description: `The whole category tree of the store in one answer (not paged), as GET /v1/blog/categories. ${CACHING}`,
        response: { 200: CategoryListSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable']) },
      },
    },
    async (request, reply) => send(request, reply, await ctx.categories.list(callerOf(request).store)),
  );
}
