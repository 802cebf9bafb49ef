// Public image files: GET/HEAD /media/<store handle>/<basename>. Not part of /v1: no key, no
// policy, hidden from the OpenAPI description. Unknown or deleted files answer the JSON 404.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../lib/api-error.js';
import { isNotModified } from '../http-validators.js';

/** A basename never changes content (a new upload gets a new name), so caches may keep it. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function registerMediaFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.route<{ Params: { handle: string; basename: string } }>({
    method: ['GET', 'HEAD'],
    url: '/media/:handle/:basename',
    exposeHeadRoute: false,
    schema: { hide: true },
    async handler(request, reply) {
      const { handle, basename } = request.params;
      const image = await ctx.media.openPublic(handle, basename, request.method === 'GET');
      if (!image) throw new ApiError('not_found');
      reply
        .header('Content-Type', image.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', IMMUTABLE)
        .header('ETag', image.etag)
        .header('Last-Modified', image.modifiedAt.toUTCString());
      // The ETag only (no date): a basename never changes content.
      if (isNotModified(request.headers, image.etag, null)) {
        image.stream?.destroy();
        return reply.code(304).send();
      }
      reply.header('Content-Length', String(image.bytes));
      return reply.send(image.stream);
    },
  });
}
