// Verified keys, kept while the tables they were read from are unchanged.
import type { TableWatch } from '../../db/database.js';
import { WatchedCache } from '../../db/watched-cache.js';
import { safeEqual } from '../../lib/crypto.js';
import type { Caller } from './key-service.js';

/** Tables a Caller is read from: a change to either may revoke, expire or re-limit a key. */
export const CALLER_TABLES = ['api_keys', 'stores'] as const;

/** Bounded: the least recently used verified key is dropped beyond this many. */
export const CALLER_CACHE_SIZE = 10_000;

interface Entry {
  secret: string;
  caller: Caller;
}

/**
 * Looking a key up and hashing its secret was most of a cheap read's cost. A verified key is
 * kept here only until its tables may have changed: every write to them on this connection and
 * every commit by another process (the CLI revoking a key) empties the cache before the next
 * request is admitted, so revocation and limit changes still apply on the very next request.
 * A kept key is valid until its expiry. Unknown keys and wrong secrets are never kept.
 */
export class CallerCache {
  private readonly cache: WatchedCache<Entry>;

  constructor(watch: TableWatch, size = CALLER_CACHE_SIZE) {
    this.cache = new WatchedCache(watch, size);
  }

  /** See WatchedCache.begin(): call right before find() and the read. */
  begin(): number | null {
    return this.cache.begin();
  }

  find(stamp: number | null, keyId: string, secret: string, now: number): Caller | undefined {
    const entry = this.cache.find(stamp, keyId, now);
    return entry && safeEqual(entry.secret, secret) ? entry.caller : undefined;
  }

  /** Keeps a caller verified at `now` from a read that began at `stamp`, unless the tables changed since. */
  keep(stamp: number | null, keyId: string, secret: string, caller: Caller, now: number): void {
    this.cache.keep(stamp, keyId, { secret, caller: freezeCaller(caller) }, { now, until: caller.expiresAt ?? undefined, size: 1 });
  }
}

/** One Caller object serves many requests, so nothing may change it. */
function freezeCaller(caller: Caller): Caller {
  Object.freeze(caller.scopes);
  Object.freeze(caller.rateLimits);
  Object.freeze(caller.store.features);
  Object.freeze(caller.store.limits);
  Object.freeze(caller.store.quotas);
  Object.freeze(caller.store);
  return Object.freeze(caller);
}
