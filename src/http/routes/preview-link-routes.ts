// POST /v1/blog/posts/{id}/preview-links: a signed link to the post's store front page as a
// preview (the page itself is served by storefront-routes.ts). See docs/storefront.md.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, GATED_ERRORS, IdParam } from '../../lib/schema-kit.js';
import { PreviewLinkBody, PreviewLinkSchema } from '../../modules/storefront/index.js';
import { callerOf } from '../route-policy.js';

export function registerPreviewLinkRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Params: Static<typeof IdParam>; Body: Static<typeof PreviewLinkBody> | undefined }>(
    '/v1/blog/posts/:id/preview-links',
    {
      config: { policy: { scope: 'write_blog' } },
      schema: {
        tags: ['posts'],
        security: [{ bearerAuth: [] }],
        operationId: 'createPreviewLink',
        summary: 'Create a preview link to show a post (draft, scheduled or published) as readers will see it',
        description:
          'Answers an unguessable (signed) url of the store front page of this post as a preview: current content, noindex (meta tag and X-Robots-Tag), ' +
          'a visible preview banner, never counted in view_count, the store front’s strict Content-Security-Policy. ' +
          'After expires_at, or once the post is deleted, the url answers 404. Links are not stored: they cannot be listed or revoked, so keep expires_in_seconds short. See docs/storefront.md.',
        params: IdParam,
        body: PreviewLinkBody,
        response: { 201: PreviewLinkSchema, ...errorResponses([...GATED_ERRORS, 'not_found']) },
      },
    },
    async (request, reply) => {
      const { store } = callerOf(request);
      await ctx.posts.require(store, request.params.id);
      return reply.code(201).send(ctx.previewLinks.issue(store, request.params.id, request.body?.expires_in_seconds));
    },
  );
}
