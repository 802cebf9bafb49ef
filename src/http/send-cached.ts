// Sending a cached (frozen, shared) response value: it is serialised once, not on every read.
import type { FastifyReply } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';
const serialised = new WeakMap<object, Buffer>();

/**
 * Values the caches hold (src/cache) are frozen and served to many requests; their JSON
 * (through the route's response schema, as any reply), already encoded as UTF-8 bytes, is held
 * beside them and dies with them. Anything else is returned for Fastify to serialise as usual.
 */
export function sendCached<T extends object>(reply: FastifyReply, value: T): T | undefined {
  if (!Object.isFrozen(value)) return value;
  let json = serialised.get(value);
  if (json === undefined) {
    json = Buffer.from(reply.serialize(value) as string, 'utf8');
    serialised.set(value, json);
  }
  reply.type(JSON_TYPE).send(json);
  // Not the reply: an async handler that returns it makes the promise machinery call its then(),
  // which waits for the answer to finish through stream listeners, on every cached read.
  // Fastify takes undefined from a handler that has already sent.
  return undefined;
}
