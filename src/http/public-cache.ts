// Caching of what anyone may read: store-front pages, feeds, sitemaps and the Content API's
// answers. One policy for all of them (PUBLIC_CACHE_MAX_AGE_SECONDS, PUBLIC_CACHE_STALE_SECONDS)
// so a browser or a CDN keeps each for the same short time, then revalidates it by its ETag;
// a change (an edit, an unpublish) is seen by every cache within max-age + stale-while-revalidate,
// on every process of a fleet, because the validators come from the content, not from a process.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublicCachePolicy } from '../config/config.js';
import { etagOf, httpDate, isNotModified } from './http-validators.js';

/** The Cache-Control of a public answer under `policy`. */
export function publicCacheControl(policy: PublicCachePolicy): string {
  const stale = policy.staleSeconds > 0 ? `, stale-while-revalidate=${policy.staleSeconds}` : '';
  return `public, max-age=${policy.maxAgeSeconds}${stale}`;
}

export interface PublicAnswer {
  /** The representation; its hash is the ETag unless `etag` is given. */
  body: string | Buffer;
  /** The newest update time of what the answer shows (Last-Modified), when it is known. */
  lastModified?: number;
  etag?: string;
  /**
   * Send Last-Modified but answer If-Modified-Since with the full answer: for lists, where an
   * entry leaving (a deleted post) leaves no newer time behind. If-None-Match still gives 304s.
   */
  ignoreModifiedSince?: boolean;
}

/**
 * Sends a public answer with its validators and Cache-Control, or `304` (no body) when the
 * client's copy is current. Headers the caller set before (Content-Type, Vary, CORS) stay on
 * both, as RFC 9110 §15.4.5 asks of a 304.
 */
export function sendPublic(
  request: FastifyRequest,
  reply: FastifyReply,
  policy: PublicCachePolicy,
  answer: PublicAnswer,
): FastifyReply {
  const etag = answer.etag ?? etagOf(answer.body);
  reply.header('Cache-Control', publicCacheControl(policy)).header('ETag', etag);
  if (answer.lastModified !== undefined) reply.header('Last-Modified', httpDate(answer.lastModified));
  const since = answer.ignoreModifiedSince ? null : (answer.lastModified ?? null);
  if (isNotModified(request.headers, etag, since)) return reply.code(304).send();
  return reply.send(answer.body);
}

/**
 * Adds header names to the reply's Vary, keeping those already there: a cache keeps one copy per
 * value of each (RFC 9110 §12.5.5), e.g. `Origin` for answers whose CORS headers depend on it.
 */
export function addVary(reply: FastifyReply, ...names: string[]): FastifyReply {
  const current = reply.getHeader('Vary');
  const listed = typeof current === 'string' && current !== '' ? current.split(',').map((n) => n.trim()) : [];
  for (const name of names) if (!listed.some((n) => n.toLowerCase() === name.toLowerCase())) listed.push(name);
  return reply.header('Vary', listed.join(', '));
}
