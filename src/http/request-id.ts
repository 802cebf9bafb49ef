import type { IncomingMessage } from 'node:http';
import { randomToken } from '../lib/crypto.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Echoes a well-formed caller trace id; replaces a malformed or missing one (never refuses). */
export function requestIdFor(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  if (typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent)) return sent;
  return `req_${randomToken(12)}`;
}
