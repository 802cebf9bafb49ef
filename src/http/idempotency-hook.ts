// Idempotency step of the pipeline (after schema validation, before the handler).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { sha256Hex } from '../lib/crypto.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { IdempotencyScope } from '../modules/idempotency/index.js';
import { callerOf } from './route-policy.js';

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyScope: IdempotencyScope | null;
  }
}

/**
 * JSON with sorted keys: sameness ignores key order (decisions). The keys are sorted into a
 * copy that is stringified once, so long strings (a post body) are escaped by one native pass.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(withSortedKeys(value) ?? null);
}

function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withSortedKeys(item) ?? null);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = withSortedKeys((value as Record<string, unknown>)[key]) ?? null;
  return sorted;
}

export function readIdempotencyKey(request: FastifyRequest): string {
  const sent = request.headers['idempotency-key'];
  if (typeof sent !== 'string' || sent.length === 0) throw new ApiError('validation_failed', [detail('Idempotency-Key', 'is required')]);
  if (!KEY_PATTERN.test(sent)) throw new ApiError('validation_failed', [detail('Idempotency-Key', 'must be 1 to 255 printable ASCII characters')]);
  return sent;
}

/** Hooks of one route, as Fastify accepts them: none, one or a list. */
const hookList = <H>(hooks: H | H[] | undefined): H[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** Must run before the routes are added: only routes whose policy says `idempotent` get the hooks. */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('idempotencyScope', null);

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = callerOf(request);
    const scope: IdempotencyScope = { storeId: caller.store.id, application: caller.application, key: readIdempotencyKey(request) };
    const path = request.url.split('?')[0];
    const hash = sha256Hex(`${request.method} ${path} ${canonicalJson(request.body)}`);
    const outcome = await ctx.idempotency.begin(scope, hash);
    switch (outcome.kind) {
      case 'proceed':
        request.idempotencyScope = scope;
        return;
      case 'reused':
        throw new ApiError('idempotency_key_reused', [detail('Idempotency-Key', 'was used before with a different request')]);
      case 'in_progress':
        throw new ApiError('idempotency_in_progress', [detail('Idempotency-Key', 'the first request with this key is still running')], { 'Retry-After': '2' });
      case 'replay':
        if (outcome.location) reply.header('Location', outcome.location);
        reply.header('Idempotent-Replayed', 'true');
        return reply.code(outcome.statusCode).type('application/json; charset=utf-8').send(outcome.body);
    }
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const scope = request.idempotencyScope;
    if (!scope) return payload;
    request.idempotencyScope = null;
    if (reply.statusCode >= 200 && reply.statusCode < 300) {
      const location = reply.getHeader('location');
      await ctx.idempotency.complete(scope, reply.statusCode, String(payload ?? ''), typeof location === 'string' ? location : null);
    } else {
      await ctx.idempotency.release(scope);
    }
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.policy?.idempotent) return;
    route.preHandler = [...hookList(route.preHandler), preHandler];
    route.onSend = [...hookList(route.onSend), onSend];
  });
}

/** A response recorded for replays inside the transaction that wrote the result. */
export interface ReplayInTransaction {
  /** Serialises `value` as this reply's response and stores it for replays, inside `trx`. */
  record(trx: Db, value: unknown, location: string | null): Promise<void>;
  /** Once that transaction has committed: sends the recorded response. */
  send(): FastifyReply;
}

/**
 * For an idempotent handler whose work is one transaction: the response to replay is stored in
 * that transaction instead of after the response is serialised, so the work and its record
 * commit together (one commit fewer per request). If the transaction fails, nothing was stored
 * and the onSend hook releases the key as usual.
 */
export function replayInTransaction(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, statusCode: number): ReplayInTransaction {
  const scope = request.idempotencyScope;
  if (!scope) throw new Error(`${request.routeOptions.url} is not an idempotent route`);
  let payload: string | null = null;
  return {
    async record(trx, value, location) {
      reply.code(statusCode);
      if (location) reply.header('Location', location);
      const serialized = String(reply.serialize(value));
      await ctx.idempotency.complete(scope, statusCode, serialized, location, trx);
      payload = serialized;
    },
    send() {
      if (payload === null) throw new Error('replayInTransaction: send() before record()');
      request.idempotencyScope = null;
      return reply.type('application/json; charset=utf-8').send(payload);
    },
  };
}
