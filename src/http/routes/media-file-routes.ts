// Public image files: GET/HEAD /media/<store handle>/<basename>, and their responsive variants
// with `?w=<width>`. Not part of /v1: no key, no policy, hidden from the OpenAPI description.
// Unknown or deleted files answer the JSON 404; a width not offered, the JSON 422.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ApiError, detail } from '../../lib/api-error.js';
import { parseVariantWidth, VARIANT_WIDTHS } from '../../modules/media/index.js';
import { isNotModified } from '../http-validators.js';

/** A stored name never changes content (a new upload gets a new name), so caches may keep it. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const WIDTH_ISSUE = `must be one of ${VARIANT_WIDTHS.join(', ')}`;

export function registerMediaFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.route<{ Params: { handle: string; basename: string }; Querystring: Record<string, unknown> }>({
    method: ['GET', 'HEAD'],
    url: '/media/:handle/:basename',
    exposeHeadRoute: false,
    schema: { hide: true },
    async handler(request, reply) {
      const { handle, basename } = request.params;
      const withBody = request.method === 'GET';
      const asked = Object.hasOwn(request.query, 'w');
      // The width is checked first: a malformed request costs no database read.
      const width = asked ? parseVariantWidth(request.query.w) : null;
      if (asked && width === null) throw new ApiError('validation_failed', [detail('w', WIDTH_ISSUE)]);
      const image =
        width === null
          ? await ctx.media.openPublic(handle, basename, withBody)
          : await ctx.media.variants.open(handle, basename, width, request.headers.accept, withBody);
      if (!image) throw new ApiError('not_found');
      // A variant's format follows the Accept header, so every answer to `?w=` says so to caches.
      if (width !== null) reply.header('Vary', 'Accept');
      reply
        .header('Content-Type', image.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', IMMUTABLE)
        .header('ETag', image.etag)
        .header('Last-Modified', image.modifiedAt.toUTCString());
      // The ETag only (no date): a stored name never changes content.
      if (isNotModified(request.headers, image.etag, null)) {
        image.stream?.destroy();
        return reply.code(304).send();
      }
      reply.header('Content-Length', String(image.bytes));
      return reply.send(image.stream);
    },
  });
}
