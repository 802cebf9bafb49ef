import type { IncomingMessage } from 'node:http';
import { randomFillSync } from 'node:crypto';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

// Generated ids need to be unique, not secret: they are cut from a buffer of random bytes
// refilled once per 256 ids, since a CSPRNG call per request was a visible share of a read's cost.
const ID_BYTES = 12;
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

function freshId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}

/** Echoes a well-formed caller trace id; replaces a malformed or missing one (never refuses). */
export function requestIdFor(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  if (typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent)) return sent;
  return freshId();
}
