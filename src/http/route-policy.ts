import { NO_VERSIONS, type CacheVersions } from '../cache/index.js';
import type { Scope } from '../modules/keys/index.js';
import type { Caller } from '../modules/keys/index.js';

export type Feature = 'blog_categories' | 'media_upload' | 'webhooks';

/** What a /v1 route requires, read by the pipeline. Every /v1 route must declare one. */
export interface RoutePolicy {
  /** The scope needed, or 'any' for endpoints open to every valid key (/v1/me, /v1/openapi.json). */
  scope: Scope | 'any';
  /**
   * With scope 'any': a key a public page may hold (`read_published` alone) may call it too. Such
   * a key reaches the Content API and what it says here only (docs/content-api.md).
   */
  publishable?: boolean;
  /** Optional per-store capability; off → 404 feature_unavailable. */
  feature?: Feature;
  /** Whether the store gates (uncertified, writes paused) apply. Default true. */
  tenantGate?: boolean;
  /** Create endpoints that take an Idempotency-Key. */
  idempotent?: boolean;
  /** Takes a post's body_html (create, update): a body longer than the store could need is refused unread. */
  postBody?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
    /** A CORS preflight (OPTIONS) of a /v1 route: answered without a key, so it has no policy. */
    preflight?: boolean;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** The cache versions read with the caller (src/cache); null before authentication. */
    cacheVersions: CacheVersions | null;
    /** Releases this request's in-flight slot; set by the concurrency step. */
    releaseSlot: (() => Promise<void>) | null;
  }
}

/** Requires the caller the pipeline authenticated; routes with a policy always have one. */
export function callerOf(request: { caller: Caller | null }): Caller {
  if (!request.caller) throw new Error('Route reached without an authenticated caller');
  return request.caller;
}

/** The cache versions the request reads under (none: nothing is served from a cache). */
export function versionsOf(request: { cacheVersions: CacheVersions | null }): CacheVersions {
  return request.cacheVersions ?? NO_VERSIONS;
}
