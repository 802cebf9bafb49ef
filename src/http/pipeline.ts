// The request pipeline in its fixed order (decisions: error precedence, first match wins):
// request id + common headers → 401 → 403 → 429 rate → 429 concurrency → 503 store gates →
// 404 feature → (Fastify) body parse + schema 422 → idempotency → handler (404, 409/413/415/422, quota).
// Everything up to the feature flag runs in onRequest, so it wins over a malformed body.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { parseBearer, type Authenticated } from '../modules/keys/index.js';
import type { AppContext } from '../context.js';
import type { RoutePolicy } from './route-policy.js';
import { commonHeaders } from './common-headers.js';

export function registerPipeline(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('cacheVersions', null);
  app.decorateRequest('releaseSlot', null);

  // Registration fails loudly if a /v1 route forgets its policy (scope, gates).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/v1') && !route.config?.policy && route.method !== 'HEAD') {
      throw new Error(`Route ${route.method} ${route.url} has no policy`);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(commonHeaders(String(request.id)));
    const policy = request.routeOptions.config?.policy;
    if (policy) await admit(ctx, policy, request, reply);
  });

  // The release is not awaited: it goes out with the next turn's Redis commands (auto-pipelining)
  // and never fails (a lost release ages out, see traffic/redis-slots.ts).
  const release = (request: FastifyRequest) => {
    const releaseSlot = request.releaseSlot;
    request.releaseSlot = null;
    if (releaseSlot) void releaseSlot();
  };
  app.addHook('onResponse', (request, _reply, done) => {
    release(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    release(request);
    done();
  });
}

const rateClassOf = (method: string) => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

async function admit(ctx: AppContext, policy: RoutePolicy, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { caller, versions } = await authenticate(ctx, request.headers.authorization);
  request.caller = caller;
  request.cacheVersions = versions;
  // Fastify logs the request's completion through reply.log, which starts as the same logger.
  request.log = reply.log = request.log.child({ key_id: caller.keyId, store: caller.store.handle });

  // Every authenticated request counts against its class, whatever its outcome; the count and
  // the slot are one round trip to Redis. A request refused for its scope takes no slot.
  const rateClass = rateClassOf(request.method);
  const limit = rateClass === 'read' ? caller.rateLimits.readPerMinute : caller.rateLimits.writePerMinute;
  const scopeAllowed = policy.scope === 'any' || caller.scopes.includes(policy.scope);
  const admission = await ctx.traffic.admit({ keyId: caller.keyId, rateClass, limitPerMinute: limit, concurrency: caller.rateLimits.concurrency, takeSlot: scopeAllowed });
  const { decision } = admission;
  reply.header('X-RateLimit-Limit', String(decision.limit));
  reply.header('X-RateLimit-Remaining', String(decision.remaining));
  reply.header('X-RateLimit-Reset', String(decision.resetAtUnixSeconds));

  if (!scopeAllowed) throw new ApiError('insufficient_scope', [detail('scope', `required: ${policy.scope}`)]);
  if (!decision.allowed) {
    throw new ApiError('rate_limited', [], { 'Retry-After': String(Math.max(1, decision.retryAfterSeconds)) });
  }
  if (!admission.release) throw new ApiError('concurrency_limited', [], { 'Retry-After': '1' });
  request.releaseSlot = admission.release;
  releaseWhenClosed(request, reply);

  if (policy.tenantGate !== false) {
    if (!caller.store.certified) throw new ApiError('tenant_not_certified');
    if (rateClass === 'write' && caller.store.writesPaused) throw new ApiError('tenant_schema_changed');
  }
  if (policy.feature === 'blog_categories' && !caller.store.features.blogCategories) throw new ApiError('feature_unavailable');
  if (policy.feature === 'media_upload' && !caller.store.features.mediaUpload) throw new ApiError('feature_unavailable');
  if (policy.feature === 'webhooks' && !caller.store.features.webhooks) throw new ApiError('feature_unavailable');
}

/**
 * Frees the slot however the exchange ends. onResponse never runs for a response whose socket
 * was destroyed first: a body shorter than the bytes sent makes the rest parse as a broken
 * second request, the parser's error closes the connection, and the slot would stay held.
 */
function releaseWhenClosed(request: FastifyRequest, reply: FastifyReply): void {
  const release = () => {
    const releaseSlot = request.releaseSlot;
    request.releaseSlot = null;
    if (releaseSlot) void releaseSlot();
  };
  if (reply.raw.destroyed || request.raw.socket?.destroyed) release();
  else reply.raw.once('close', release);
}

async function authenticate(ctx: AppContext, header: string | undefined): Promise<Authenticated> {
  const rawKey = parseBearer(header);
  const authenticated = rawKey ? await ctx.keys.authenticate(rawKey) : null;
  if (!authenticated) throw new ApiError('unauthorized');
  return authenticated;
}
