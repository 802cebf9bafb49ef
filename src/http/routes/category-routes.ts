import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, GATED_ERRORS, IdempotencyHeader, IdParam } from '../../lib/schema-kit.js';
import {
  CategoryListSchema,
  CategorySchema,
  CreateCategoryBody,
  UpdateCategoryBody,
} from '../../modules/categories/index.js';
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
      schema: {
        tags,
        security,
        operationId: 'listCategories',
        summary: 'All categories at once, ordered by id',
        description:
          'The whole category tree of the store in one answer (not paged), ordered by id; build the tree from parent_id and depth.',
        response: { 200: CategoryListSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable']) },
      },
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
        description:
          'Creates a category at the top level or under parent_id, within the store’s depth limit. Requires an Idempotency-Key. The same name under the same parent answers 409 category_name_conflict with the existing category’s id in details: reuse it.',
        headers: IdempotencyHeader,
        body: CreateCategoryBody,
        response: {
          201: CategorySchema,
          ...errorResponses([
            ...GATED_ERRORS,
            'feature_unavailable',
            'category_name_conflict',
            'idempotency_key_reused',
            'idempotency_in_progress',
          ]),
        },
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

  app.patch<{ Params: Static<typeof IdParam>; Body: Static<typeof UpdateCategoryBody> }>(
    '/v1/blog/categories/:id',
    {
      config: { policy: { scope: 'write_blog', feature: 'blog_categories' } },
      schema: {
        tags,
        security,
        operationId: 'updateCategory',
        summary: 'Rename and/or move a category',
        description:
          'name renames (unique under the parent, else 409 category_name_conflict); parent_id moves the category with its subtree (null: to the root). ' +
          'Moving under itself or a descendant, or so that the deepest category of the subtree passes limits.category_max_depth, is 422 validation_failed naming parent_id. ' +
          'Audit event and webhook category.updated.',
        params: IdParam,
        body: UpdateCategoryBody,
        response: {
          200: CategorySchema,
          ...errorResponses([...GATED_ERRORS, 'feature_unavailable', 'not_found', 'category_name_conflict']),
        },
      },
    },
    async (request) =>
      ctx.categories.update(callerOf(request).store, request.params.id, request.body, actorOf(request)),
  );

  app.delete<{ Params: Static<typeof IdParam> }>(
    '/v1/blog/categories/:id',
    {
      config: { policy: { scope: 'write_blog', feature: 'blog_categories' } },
      schema: {
        tags,
        security,
        operationId: 'deleteCategory',
        summary: 'Delete a category without children',
        description:
          'While the category has children: 409 category_has_children (details name them). Otherwise, in one transaction, the category leaves every post’s category_ids ' +
          'and default_category_id becomes null where it pointed at it; each such post gets a new updated_at and an audit event post.updated, and the category an audit event and a webhook category.deleted.',
        params: IdParam,
        response: {
          204: { type: 'null', description: 'Deleted' },
          ...errorResponses([...GATED_ERRORS, 'feature_unavailable', 'not_found', 'category_has_children']),
        },
      },
    },
    async (request, reply) => {
      await ctx.categories.delete(callerOf(request).store, request.params.id, actorOf(request));
      return reply.code(204).send();
    },
  );
}
