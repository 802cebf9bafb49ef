// An operation that takes no body, or no query parameters, refuses them instead of ignoring
// them: an extra field is 422 validation_failed (docs/api-behaviour.md, "Unknown fields").
// The route's own schema says what it takes; this runs before the schema check.
import type { FastifyInstance } from 'fastify';
import { ApiError, detail, type ErrorDetail } from '../lib/api-error.js';

export function registerUnexpectedInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.config?.policy) return;
    const schema = request.routeOptions.schema as { body?: unknown; querystring?: unknown } | undefined;
    const details: ErrorDetail[] = [];
    if (!schema?.querystring) {
      for (const name in (request.query ?? {}) as Record<string, unknown>) {
        details.push(detail(name, 'is not a recognised field'));
        if (details.length > 100) break;
      }
    }
    if (!schema?.body && request.body !== undefined) details.push(detail('body', 'must be empty: this operation takes no body'));
    if (details.length > 0) throw new ApiError('validation_failed', details);
  });
}
