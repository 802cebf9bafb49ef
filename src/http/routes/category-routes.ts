import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, GATED_ERRORS, IdempotencyHeader } from '../../lib/schema-kit.js';
import { CategoryListSchema, CategorySchema, CreateCategoryBody } from '../../modules/categories/index.js';
import { replayInTransaction } from '../idempotency-hook.js';
import { callerOf } from '../route-policy.js';
import { actorOf } from '../route-policy-actor.js';

const security = [{ bearerAuth: [] }];
const tags = ['categories'];

export function registerCategoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/v1/blog/categories',
    {
      config: { policy: { scope: 'read_blog', feature: 'blog_categories' } },
      schema: { tags, security, operationId: 'listCategories',
        summary: 'All categories at once, ordered by id',
        description: 'The whole category tree of the store in one answer (not paged), ordered by id; build the tree from parent_id and depth.', response: { 200: CategoryListSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable']) } },
    },
    async (request) => ctx.categories.list(callerOf(request).store),
  );

  app.post<{ Body: Static<typeof CreateCategoryBody> }>(
    '/v1/blog/categories',
    {
      config: { policy: { scope: 'write_blog', feature: 'blog_categories', idempotent: true } },
      schema: {
        tags,
        security,
        operationId: 'createCategory',
        summary: 'Create a category (optionally under a parent)',
        description: 'Creates a category at the top level or under parent_id, within the store’s depth limit. Requires an Idempotency-Key. The same name under the same parent answers 409 category_name_conflict with the existing category’s id in details: reuse it.',
        headers: IdempotencyHeader,
        body: CreateCategoryBody,
        response: { 201: CategorySchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable', 'category_name_conflict', 'idempotency_key_reused', 'idempotency_in_progress']) },
      },
    },
    async (request, reply) => {
      const replay = replayInTransaction(request, reply, 201);
      await ctx.categories.create(callerOf(request).store, request.body, actorOf(request), {
        response: (category) => replay.response(category, null),
      });
      return replay.send();
    },
  );
}
