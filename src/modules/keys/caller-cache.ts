// Verified keys, kept while the tables they were read from are unchanged.
import type { TableWatch } from '../../db/database.js';
import { safeEqual } from '../../lib/crypto.js';
import type { Caller } from './key-service.js';

/** Tables a Caller is read from: a change to either may revoke, expire or re-limit a key. */
export const CALLER_TABLES = ['api_keys', 'stores'] as const;

/** Bounded: the oldest verified key is dropped beyond this many. */
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
 * Expiry is compared with the clock on every use. Unknown keys and wrong secrets are never kept.
 */
export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private stamp: number | null = null;

  constructor(
    private readonly watch: TableWatch,
    private readonly size = CALLER_CACHE_SIZE,
  ) {}

  /** Call right before find() and the read: the stamp to pass to both (null: not usable now). */
  begin(): number | null {
    const stamp = this.watch.stamp();
    if (stamp === null) return null;
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    }
    return stamp;
  }

  find(stamp: number | null, keyId: string, secret: string): Caller | undefined {
    if (stamp === null) return undefined;
    const entry = this.entries.get(keyId);
    return entry && safeEqual(entry.secret, secret) ? entry.caller : undefined;
  }

  /** Keeps a caller verified from a read that began at `stamp`, unless the tables changed since. */
  keep(stamp: number | null, keyId: string, secret: string, caller: Caller): void {
    if (stamp === null || this.watch.stamp() !== stamp || stamp !== this.stamp) return;
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyId, { secret, caller: freezeCaller(caller) });
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
