// An operation that takes no body, or no query parameters, refuses them instead of ignoring
// them: an extra field is 422 validation_failed (docs/api-behaviour.md, "Unknown fields").
// The route's own schema says what it takes; this runs before the schema check.
import type { FastifyInstance } from 'fastify';
import { ApiError, detail, type ErrorDetail } from '../lib/api-error.js';
import { SMALL_JSON_BODY_BYTES } from '../lib/request-bounds.js';
import { routeOf } from './route-of.js';

export function registerUnexpectedInputGuard(app: FastifyInstance): void {
  // Only the bodies that carry a post's HTML (create and update) may be as large as
  // MAX_JSON_BODY_BYTES; every other JSON body is small, so a larger one is refused (413) by its
  // length, before a byte of it is parsed. Upload bodies are multipart, with their own limits.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1') || route.bodyLimit !== undefined) return;
    const schema = route.schema as { body?: { properties?: Record<string, unknown> }; consumes?: string[] } | undefined;
    if (schema?.consumes?.includes('multipart/form-data') || schema?.body?.properties?.body_html) return;
    route.bodyLimit = SMALL_JSON_BODY_BYTES;
  });
  // Callback-style (not async): it runs on every request (see app.ts).
  app.addHook('preValidation', (request, _reply, done) => {
    const route = routeOf(request);
    if (!route.config?.policy) return done();
    const schema = route.schema as { body?: unknown; querystring?: unknown } | undefined;
    const details: ErrorDetail[] = [];
    if (!schema?.querystring) {
      for (const name in (request.query ?? {}) as Record<string, unknown>) {
        details.push(detail(name, 'is not a recognised field'));
        if (details.length > 100) break;
      }
    }
    if (!schema?.body && request.body !== undefined)
      details.push(detail('body', 'must be empty: this operation takes no body'));
    done(details.length > 0 ? new ApiError('validation_failed', details) : undefined);
  });
}
