// The request pipeline in its fixed order (docs/api-behaviour.md, "Error precedence"; first match wins):
// request id + common headers → 401 → 403 → 429 rate → 429 concurrency → 503 store gates →
// 404 feature → 413 a post body longer than the store could need → (Fastify) body parse + schema 422 → idempotency → handler (404, 409/413/415/422, quota).
// Everything up to the feature flag runs in onRequest, so it wins over a malformed body.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { postBodyCeiling } from '../lib/request-bounds.js';
import { isPublishableKey, parseBearer, type Caller } from '../modules/keys/index.js';
import type { CacheVersions, SharedRead } from '../cache/index.js';
import {
  addressAdmission,
  decide,
  tighterDecision,
  type Admission,
  type AdmitRequest,
  type RateClass,
  type RateDecision,
} from '../traffic/index.js';
import type { AppContext } from '../context.js';
import type { RoutePolicy } from './route-policy.js';
import { commonHeaders } from './common-headers.js';
import { routeOf } from './route-of.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Admitted /v1 requests of this server holding their in-flight slot (the in-flight gauge). */
    requestsInFlight(): number;
  }
}

export function registerPipeline(app: FastifyInstance, ctx: AppContext): void {
  const held = { slots: 0 };
  heldSlots.set(ctx, held);
  app.decorate('requestsInFlight', () => held.slots);
  app.decorateRequest('caller', null);
  app.decorateRequest('cacheVersions', null);
  app.decorateRequest('releaseSlot', null);

  // Registration fails loudly if a /v1 route forgets its policy (scope, gates).
  app.addHook('onRoute', (route) => {
    const exempt = route.method === 'HEAD' || (route.method === 'OPTIONS' && route.config?.preflight === true);
    if (route.url.startsWith('/v1') && !route.config?.policy && !exempt) {
      throw new Error(`Route ${route.method} ${route.url} has no policy`);
    }
  });

  // Callback-style, and synchronous when nothing it needs is elsewhere (SQLite's versions and a
  // cached key in memory, the limits in this process): a read is then admitted in the turn its
  // headers arrived in, without a promise or a turn of the microtask queue.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(commonHeaders(String(request.id)));
    const policy = routeOf(request).config?.policy;
    if (!policy) return done();
    let admitted: void | Promise<void>;
    try {
      admitted = admit(ctx, policy, request, reply);
    } catch (err) {
      // A refusal is answered after the parser has taken in what arrived with the headers: a
      // body already whole then keeps its connection (app.ts closes it only when the body is
      // still arriving).
      return queueMicrotask(() => done(err as Error));
    }
    if (admitted) admitted.then(() => done(), done);
    else done();
  });

  // PostgreSQL with Redis: a write drops its store's version copy in Redis after its commit and
  // before its answer leaves, so every instance's next read of that store reads the versions
  // again. A refusal (4xx) committed nothing; a 5xx may have, so it drops too. A drop that fails
  // is tried again once Redis is back (up to a second), then left to every instance's reconcile,
  // which finds it within about a second (shared-versions.ts). The failure is counted and logged
  // by kind (RedisHealth), not once per request.
  const shared = ctx.sharedVersions;
  if (shared) {
    // Callback-style so that a read, which drops nothing, costs no promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      const caller = request.caller;
      if (!caller || rateClassOf(request.method) !== 'write' || (reply.statusCode >= 400 && reply.statusCode < 500))
        return done(null, payload);
      // A failed drop is counted and logged by kind where it failed (src/traffic/redis-health.ts).
      shared.drop([caller.store.id]).then(
        () => done(null, payload),
        () => done(null, payload),
      );
    });
  }

  app.addHook('onResponse', (request, _reply, done) => {
    releaseSlotOf(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    releaseSlotOf(request);
    done();
  });
}

/** Slots held per application (a process may run several, as tests do). */
const heldSlots = new WeakMap<AppContext, { slots: number }>();

/**
 * Gives the request's in-flight slot back, once whichever way the exchange ends first. Not
 * awaited: it goes out with the key's next admission or at the turn's end
 * (traffic/release-batch.ts), and never fails (a lost release ages out, see traffic/redis-slots.ts).
 */
function releaseSlotOf(request: FastifyRequest): void {
  const releaseSlot = request.releaseSlot;
  request.releaseSlot = null;
  if (releaseSlot) void releaseSlot();
}

const rateClassOf = (method: string): RateClass => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

/** `next(value)` now when `value` is at hand, or once it resolves. */
function after<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** Admits the request or throws its refusal; a promise only when a step had to wait. */
function admit(
  ctx: AppContext,
  policy: RoutePolicy,
  request: FastifyRequest,
  reply: FastifyReply,
): void | Promise<void> {
  const rawKey = parseBearer(request.headers.authorization);
  if (!rawKey) throw new ApiError('unauthorized');
  const rateClass = rateClassOf(request.method);
  const shared = ctx.sharedVersions;
  // PostgreSQL with Redis: a key already cached is counted, given its slot and told its store's
  // cache versions in one Redis call, before it is known to be still valid (that needs the
  // versions); a cached read then sends nothing else anywhere.
  const cachedCaller = shared ? ctx.keys.cachedCaller(rawKey) : undefined;
  if (!shared || !cachedCaller)
    return after(ctx.keys.authenticate(rawKey), (authenticated) => {
      if (!authenticated) throw new ApiError('unauthorized');
      settleCaller(request, reply, authenticated.caller, authenticated.versions);
      return after(ctx.traffic.admit(admissionOf(authenticated.caller, policy, rateClass)), (admission) =>
        decideAdmission({ ctx, policy, request, reply, rateClass }, admission),
      );
    });
  return admitWithSharedCopy(ctx, shared, cachedCaller, rawKey, policy, request, reply, rateClass);
}

async function admitWithSharedCopy(
  ctx: AppContext,
  shared: NonNullable<AppContext['sharedVersions']>,
  cachedCaller: Caller,
  rawKey: string,
  policy: RoutePolicy,
  request: FastifyRequest,
  reply: FastifyReply,
  rateClass: RateClass,
): Promise<void> {
  const earlyAdmission = await ctx.traffic.admit({
    ...admissionOf(cachedCaller, policy, rateClass, shared.keyOf(cachedCaller.store.id)),
    markerKey: shared.markerKey(),
  });
  const sharedCopy: SharedRead | null = shared.parse(earlyAdmission.hash, earlyAdmission.marker);
  let authenticated;
  try {
    authenticated = await ctx.keys.authenticate(rawKey, sharedCopy?.versions ?? null);
  } catch (err) {
    // The database failed: the slot taken first is given back, not left to age out.
    if (earlyAdmission.release) void earlyAdmission.release();
    throw err;
  }
  if (!authenticated) {
    if (earlyAdmission.release) void earlyAdmission.release();
    throw new ApiError('unauthorized');
  }
  const { caller, versions } = authenticated;
  // No copy in Redis (a writer dropped it): the versions were just read from PostgreSQL; put
  // them back unless another writer dropped the copy since (the generation seen first).
  if (sharedCopy && !sharedCopy.versions && versions.keys !== null && caller.store.id === cachedCaller.store.id)
    shared.fill(caller.store.id, sharedCopy, versions);
  settleCaller(request, reply, caller, versions);
  const admission =
    caller === cachedCaller ? earlyAdmission : await admitAgain(ctx, earlyAdmission, caller, policy, rateClass);
  await decideAdmission({ ctx, policy, request, reply, rateClass }, admission);
}

function settleCaller(request: FastifyRequest, reply: FastifyReply, caller: Caller, versions: CacheVersions): void {
  request.caller = caller;
  request.cacheVersions = versions;
  // Fastify logs the request's completion through reply.log, which starts as the same logger.
  request.log = reply.log = request.log.child({ key_id: caller.keyId, store: caller.store.handle });
}

/** What every step of one request's admission works on. */
interface Admitting {
  ctx: AppContext;
  policy: RoutePolicy;
  request: FastifyRequest;
  reply: FastifyReply;
  rateClass: RateClass;
}

/**
 * Every authenticated request counts against its class, whatever its outcome (the count and
 * the slot are one step: one round trip with Redis). A key a public page may hold is also
 * limited per client address (request.ip follows TRUST_PROXY).
 */
function decideAdmission(step: Admitting, admission: Admission): void | Promise<void> {
  const { ctx, request, rateClass } = step;
  const caller = request.caller!;
  if (!isPublishableKey(caller.scopes)) return passGates(step, admission, admission.decision);
  const limit = ctx.config.contentAddressReadsPerMinute;
  return after(ctx.traffic.admit(addressAdmission(caller.keyId, request.ip, rateClass, limit)), (byAddress) =>
    passGates(step, admission, tighterDecision(admission.decision, byAddress.decision)),
  );
}

/** The rate headers, then the refusals in their order: scope, rate, concurrency, store gates, feature, length. */
function passGates(step: Admitting, admission: Admission, decision: RateDecision): void {
  const { ctx, policy, request, reply, rateClass } = step;
  const caller = request.caller!;
  reply.header('X-RateLimit-Limit', String(decision.limit));
  reply.header('X-RateLimit-Remaining', String(decision.remaining));
  reply.header('X-RateLimit-Reset', String(decision.resetAtUnixSeconds));

  if (!scopeAllows(policy, caller))
    throw new ApiError('insufficient_scope', [detail('scope', `required: ${requiredScope(policy)}`)]);
  if (!decision.allowed) {
    // The key's own allowance may have let it take a slot that the address's refusal leaves unused.
    if (admission.release) void admission.release();
    throw new ApiError('rate_limited', [], { 'Retry-After': String(Math.max(1, decision.retryAfterSeconds)) });
  }
  if (!admission.release) throw new ApiError('concurrency_limited', [], { 'Retry-After': '1' });
  // Set when the pipeline was registered, before any request.
  holdSlot(heldSlots.get(ctx)!, request, reply, admission.release);

  if (policy.tenantGate !== false) {
    if (!caller.store.certified) throw new ApiError('tenant_not_certified');
    if (rateClass === 'write' && caller.store.writesPaused) throw new ApiError('tenant_schema_changed');
  }
  if (policy.feature === 'blog_categories' && !caller.store.features.blogCategories)
    throw new ApiError('feature_unavailable');
  if (policy.feature === 'media_upload' && !caller.store.features.mediaUpload)
    throw new ApiError('feature_unavailable');
  if (policy.feature === 'webhooks' && !caller.store.features.webhooks) throw new ApiError('feature_unavailable');
  if (policy.postBody) refuseUnneededLength(request, caller.store.limits.bodyMaxBytes);
}

/**
 * A post body whose announced length no post within the store's limit could need is refused
 * before it is read (the connection then lingers: connection-guard.ts), instead of being
 * received, checked and parsed up to MAX_JSON_BODY_BYTES only to fail the same limit later.
 */
function refuseUnneededLength(request: FastifyRequest, bodyMaxBytes: number): void {
  const length = Number(request.headers['content-length']);
  const ceiling = postBodyCeiling(bodyMaxBytes);
  if (!(length > ceiling)) return;
  throw new ApiError('content_too_large', [
    detail(
      'body',
      `is ${length} bytes; a post whose body_html is within limits.body_max_bytes (${bodyMaxBytes}) needs at most ${ceiling}`,
    ),
  ]);
}

const scopeAllows = (policy: RoutePolicy, caller: Caller) =>
  policy.scope === 'any'
    ? policy.publishable === true || !isPublishableKey(caller.scopes)
    : caller.scopes.includes(policy.scope);
/** The scope a refusal names: for a route open to every key but a public page's, the management read scope. */
const requiredScope = (policy: RoutePolicy) => (policy.scope === 'any' ? 'read_blog' : policy.scope);
const limitOf = (caller: Caller, rateClass: RateClass) =>
  rateClass === 'read' ? caller.rateLimits.readPerMinute : caller.rateLimits.writePerMinute;

function admissionOf(caller: Caller, policy: RoutePolicy, rateClass: RateClass, hashKey?: string): AdmitRequest {
  return {
    keyId: caller.keyId,
    rateClass,
    limitPerMinute: limitOf(caller, rateClass),
    concurrency: caller.rateLimits.concurrency,
    takeSlot: scopeAllows(policy, caller),
    hashKey,
  };
}

/**
 * The cached key had changed (its limits, scopes or store): the request was already counted
 * once, so it is decided again under the key as it is now, and its slot taken again.
 */
async function admitAgain(
  ctx: AppContext,
  earlyAdmission: Admission,
  caller: Caller,
  policy: RoutePolicy,
  rateClass: RateClass,
): Promise<Admission> {
  if (earlyAdmission.release) void earlyAdmission.release();
  const limit = limitOf(caller, rateClass);
  const decision = decide(limit, earlyAdmission.consumed, ctx.clock.now().getTime(), earlyAdmission.windowEndMs);
  const takeSlot = decision.allowed && scopeAllows(policy, caller);
  const release = takeSlot ? await ctx.traffic.acquireSlot(caller.keyId, caller.rateLimits.concurrency) : null;
  return { ...earlyAdmission, decision, release, slotRefused: takeSlot && release === null };
}

/**
 * Frees the slot however the exchange ends. onResponse never runs for a response whose socket
 * was destroyed first: a body shorter than the bytes sent makes the rest parse as a broken
 * second request, the parser's error closes the connection, and the slot would stay held.
 * The close listener is one function shared by every response (the request rides on the
 * response) rather than a closure per response; the release itself also counts the slot out.
 */
function holdSlot(
  held: { slots: number },
  request: FastifyRequest,
  reply: FastifyReply,
  release: () => Promise<void>,
): void {
  held.slots++;
  request.releaseSlot = () => {
    held.slots--;
    return release();
  };
  const response = reply.raw as SlotResponse;
  if (response.destroyed || request.raw.socket?.destroyed) return releaseSlotOf(request);
  response[REQUEST_OF_RESPONSE] = request;
  response.on('close', releaseOnClose);
}

const REQUEST_OF_RESPONSE = Symbol('request holding a slot');
type SlotResponse = FastifyReply['raw'] & { [REQUEST_OF_RESPONSE]?: FastifyRequest };

function releaseOnClose(this: SlotResponse): void {
  const request = this[REQUEST_OF_RESPONSE];
  if (request) releaseSlotOf(request);
}
