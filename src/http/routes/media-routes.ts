import type { FastifyError, FastifyInstance } from 'fastify';
import { fastifyMultipart } from '@fastify/multipart';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { ApiError, detail } from '../../lib/api-error.js';
import { errorResponses, GATED_ERRORS } from '../../lib/schema-kit.js';
import {
  ImageIdParam,
  ImageListQuery,
  ImagePageSchema,
  ImageSchema,
  ImageUploadBodySchema,
} from '../../modules/media/index.js';
import { errorHandler, sendApiError } from '../error-envelope.js';
import { callerOf } from '../route-policy.js';
import { actorOf } from '../route-policy-actor.js';
import { readImageUpload, type MultipartSource } from '../upload-reader.js';

/**
 * busboy's ceiling for any file part. Each upload passes its store's own (smaller) limit; this
 * only bounds a store configured above it.
 */
export const IMAGE_BYTES_CEILING = 100 * 1024 * 1024;

export async function registerMediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Encapsulated, so multipart parsing exists for the upload route only: every other endpoint
  // keeps refusing a multipart body as a wrong Content-Type.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: {
        fileSize: IMAGE_BYTES_CEILING,
        files: 1,
        fields: 4,
        fieldSize: 1024,
        fieldNameSize: 100,
        parts: 5,
        headerPairs: 50,
      },
    });
    // Any non-multipart body type is refused by Fastify before the handler; name the type this
    // route wants rather than the JSON the rest of the API takes.
    scope.setErrorHandler(function (err: FastifyError, request, reply) {
      if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_TYPE') {
        return sendApiError(
          request,
          reply,
          new ApiError('validation_failed', [detail('Content-Type', 'must be multipart/form-data')]),
        );
      }
      return errorHandler.call(this, err, request, reply);
    });

    scope.post(
      '/v1/media/images',
      {
        config: { policy: { scope: 'write_media', feature: 'media_upload' } },
        // The body is streamed and checked by the handler; the schema only documents it.
        validatorCompiler: () => (data: unknown) => ({ value: data }),
        schema: {
          tags: ['media'],
          operationId: 'uploadImage',
          summary: 'Upload an image (multipart/form-data, field "file"); 201 new, 200 when the same content exists',
          description:
            'Uploads one image as multipart/form-data in the field `file`. The format is decided by content (JPEG, PNG, GIF, WebP), metadata is stripped and large images are scaled down. 201 for a new image; 200 with the existing image when this store already has the same content (no quota used).',
          security: [{ bearerAuth: [] }],
          consumes: ['multipart/form-data'],
          body: ImageUploadBodySchema,
          response: {
            201: { ...ImageSchema, description: 'A new image' },
            200: { ...ImageSchema, description: 'The live image this store already has with the same content' },
            ...errorResponses([
              ...GATED_ERRORS,
              'feature_unavailable',
              'image_too_large',
              'unsupported_media_type',
              'quota_exceeded',
            ]),
          },
        },
      },
      async (request, reply) => {
        const { store } = callerOf(request);
        const file = await readImageUpload(request as unknown as MultipartSource, {
          maxBytes: Math.min(store.limits.imageMaxBytes, IMAGE_BYTES_CEILING),
          idleTimeoutMs: ctx.media.settings.uploadIdleTimeoutMs,
          totalTimeoutMs: ctx.media.settings.uploadTotalTimeoutMs,
          timers: ctx.media.uploadTimers,
        });
        const result = await ctx.media.upload(store, file, actorOf(request));
        return reply.code(result.created ? 201 : 200).send(result.image);
      },
    );
  });

  app.get<{ Querystring: Static<typeof ImageListQuery> }>(
    '/v1/media/images',
    {
      config: { policy: { scope: 'read_blog', feature: 'media_upload' } },
      schema: {
        tags: ['media'],
        operationId: 'listImages',
        summary: 'List images, newest first',
        description:
          'The store’s images (deleted ones are gone), newest upload first, each exactly as its upload answered it, one page at a time: pass meta.next_cursor as cursor until it is null.',
        security: [{ bearerAuth: [] }],
        querystring: ImageListQuery,
        response: { 200: ImagePageSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable']) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ctx.images.list(caller.store, request.query, caller.application);
    },
  );

  app.get<{ Params: Static<typeof ImageIdParam> }>(
    '/v1/media/images/:id',
    {
      config: { policy: { scope: 'read_blog', feature: 'media_upload' } },
      schema: {
        tags: ['media'],
        operationId: 'getImage',
        summary: 'Get an image',
        description:
          'One image of the store, exactly as its upload answered it. An unknown, deleted or other store’s image answers 404 not_found.',
        security: [{ bearerAuth: [] }],
        params: ImageIdParam,
        response: { 200: ImageSchema, ...errorResponses([...GATED_ERRORS, 'feature_unavailable', 'not_found']) },
      },
    },
    async (request) => ctx.images.get(callerOf(request).store, request.params.id),
  );

  app.delete<{ Params: Static<typeof ImageIdParam> }>(
    '/v1/media/images/:id',
    {
      config: { policy: { scope: 'write_media', feature: 'media_upload' } },
      schema: {
        tags: ['media'],
        operationId: 'deleteImage',
        summary: 'Delete an image; its addresses stop working. Refused while a post uses it',
        description:
          'Deletes an image; its path and url stop working at once. Refused with 409 image_in_use while a post (drafts included) uses it as cover or in its body; details lists those posts.',
        security: [{ bearerAuth: [] }],
        params: ImageIdParam,
        response: {
          204: { type: 'null', description: 'Deleted; no body' },
          ...errorResponses([...GATED_ERRORS, 'feature_unavailable', 'not_found', 'image_in_use']),
        },
      },
    },
    async (request, reply) => {
      await ctx.media.delete(callerOf(request).store, request.params.id, actorOf(request));
      return reply.code(204).send();
    },
  );
}
