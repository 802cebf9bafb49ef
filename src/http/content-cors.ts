// CORS of the Content API (docs/content-api.md, "CORS"), and of it only: management answers never
// carry CORS headers. A store lists the origins whose pages may call it (`store update
// --allowed-origins`). A preflight carries no key, so it is allowed for an origin some store
// lists (KnownOrigins); the answer itself names its store by its key and carries
// Access-Control-Allow-Origin only for an origin that store lists, so a page of another store's
// origin is refused by the browser. Every Content API answer varies by Origin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { KnownOrigins } from '../modules/stores/index.js';
import { addVary } from './public-cache.js';

/** How long a browser may reuse a preflight's answer: short, so a removed origin stops soon. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;
/** What a page (and the SDK) may send beyond the CORS-safelisted headers. */
export const ALLOWED_REQUEST_HEADERS = 'authorization, x-request-id, if-none-match';
/** What a page may read of an answer beyond the CORS-safelisted headers. */
export const EXPOSED_HEADERS =
  'etag, x-request-id, x-svc-api-version, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after';

export interface ContentCors {
  /** A route's onSend: Vary, and the CORS headers of an allowed origin. */
  onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;
}

/** Answers the preflights of `paths` and returns the hook their GET routes use. */
export function registerContentCors(app: FastifyInstance, ctx: AppContext, paths: string[]): ContentCors {
  const known = new KnownOrigins(ctx.db, ctx.clock);

  for (const path of paths) {
    app.options(path, { config: { preflight: true }, schema: { hide: true } }, async (request, reply) => {
      addVary(reply, 'Origin', 'Access-Control-Request-Headers');
      const origin = request.headers.origin;
      if (typeof origin === 'string' && (await known.has(origin)))
        reply
          .header('Access-Control-Allow-Origin', origin)
          .header('Access-Control-Allow-Methods', 'GET')
          .header('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS)
          .header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
      return reply.code(204).send();
    });
  }

  return {
    async onSend(request, reply, payload) {
      addVary(reply, 'Origin', 'Authorization');
      const origin = request.headers.origin;
      if (typeof origin !== 'string') return payload;
      // Refused before its key was known (401): allowed as a preflight would be, so a page can
      // read why; it shows nothing of any store.
      const caller = request.caller;
      const allowed = caller ? caller.store.allowedOrigins.includes(origin) : await known.has(origin);
      if (allowed)
        reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return payload;
    },
  };
}
