import type { IncomingMessage } from 'node:http';
import { randomFillSync } from 'node:crypto';
import { looksLikeKey } from '../modules/keys/index.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

// Generated ids need to be unique, not secret: they are cut from a buffer of random bytes
// refilled once per 256 ids, since a CSPRNG call per request was a visible share of a read's cost.
const ID_BYTES = 12;
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

/** A new `req_…` id (also for answers written before Fastify sees the request). */
export function freshId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}

/**
 * Echoes a well-formed caller trace id; replaces a malformed or missing one (never refuses).
 * An id that looks like a key is replaced too: the id is echoed, logged on every line of the
 * request and stored in audit events, so a key pasted into it must go no further than here.
 */
export function requestIdFor(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  if (typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent) && !looksLikeKey(sent)) return sent;
  return freshId();
}
