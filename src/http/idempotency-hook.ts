// Idempotency step of the pipeline (after schema validation, before the handler).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { sha256HexOfParts } from '../lib/crypto.js';
import type { AppContext } from '../context.js';
import type { IdempotencyScope, StoredResponse } from '../modules/idempotency/index.js';
import { callerOf } from './route-policy.js';

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyScope: IdempotencyScope | null;
  }
}

export function readIdempotencyKey(request: FastifyRequest): string {
  const sent = request.headers['idempotency-key'];
  if (typeof sent !== 'string' || sent.length === 0)
    throw new ApiError('validation_failed', [detail('Idempotency-Key', 'is required')]);
  if (!KEY_PATTERN.test(sent))
    throw new ApiError('validation_failed', [detail('Idempotency-Key', 'must be 1 to 255 printable ASCII characters')]);
  return sent;
}

/** Hooks of one route, as Fastify accepts them: none, one or a list. */
const hookList = <H>(hooks: H | H[] | undefined): H[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/** Must run before the routes are added: only routes whose policy says `idempotent` get the hooks. */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('idempotencyScope', null);

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = callerOf(request);
    const scope: IdempotencyScope = {
      storeId: caller.store.id,
      application: caller.application,
      key: readIdempotencyKey(request),
    };
    const path = request.url.split('?')[0];
    const hash = sha256HexOfParts([`${request.method} ${path} `, canonicalJson(request.body)]);
    const outcome = await ctx.idempotency.begin(scope, hash);
    switch (outcome.kind) {
      case 'proceed':
        request.idempotencyScope = scope;
        return;
      case 'reused':
        throw new ApiError('idempotency_key_reused', [
          detail('Idempotency-Key', 'was used before with a different request'),
        ]);
      case 'in_progress':
        throw new ApiError(
          'idempotency_in_progress',
          [detail('Idempotency-Key', 'the first request with this key is still running')],
          { 'Retry-After': '2' },
        );
      case 'replay':
        if (outcome.location) reply.header('Location', outcome.location);
        reply.header('Idempotent-Replayed', 'true');
        return reply.code(outcome.statusCode).type('application/json; charset=utf-8').send(outcome.body);
    }
  };

  // The one path that completes a request is replayInTransaction (below), in the handler's
  // transaction. Whatever reaches this hook with the key still held did not complete: an error,
  // or a handler that never recorded its response. Its key is released, so a retry is
  // evaluated afresh.
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const scope = request.idempotencyScope;
    if (!scope) return payload;
    request.idempotencyScope = null;
    if (reply.statusCode >= 200 && reply.statusCode < 300) {
      request.log.error(
        { route: request.routeOptions.url },
        'idempotent route answered without recording its response for replays; key released',
      );
    }
    await ctx.idempotency.release(scope);
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
  /** Serialises `value` as this reply's response: what the write stores for replays with its result. */
  response(value: unknown, location: string | null): StoredResponse;
  /** Once that transaction has committed: sends the recorded response. */
  send(): FastifyReply;
}

/**
 * How every idempotent handler completes its request: the response to replay is stored in the
 * transaction of the work it answers for, so the work and its record commit together (and no
 * second commit follows). If the transaction fails, nothing was stored and the onSend hook
 * releases the key.
 */
export function replayInTransaction(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
): ReplayInTransaction {
  const scope = request.idempotencyScope;
  if (!scope) throw new Error(`${request.routeOptions.url} is not an idempotent route`);
  let payload: string | null = null;
  return {
    response(value, location) {
      reply.code(statusCode);
      if (location) reply.header('Location', location);
      payload = String(reply.serialize(value));
      return { scope, statusCode, body: payload, location };
    },
    send() {
      if (payload === null) throw new Error('replayInTransaction: send() before response()');
      request.idempotencyScope = null;
      return reply.type('application/json; charset=utf-8').send(payload);
    },
  };
}
