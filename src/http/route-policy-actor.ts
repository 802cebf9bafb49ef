import type { FastifyRequest } from 'fastify';
import type { Actor } from '../modules/audit/index.js';
import { callerOf } from './route-policy.js';

/** The audit actor of an authenticated request. */
export function actorOf(request: FastifyRequest): Actor & { keyId: string } {
  const caller = callerOf(request);
  return {
    storeId: caller.store.id,
    keyId: caller.keyId,
    application: caller.application,
    requestId: String(request.id),
  };
}
