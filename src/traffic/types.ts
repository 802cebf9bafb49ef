import type { Clock } from '../lib/clock.js';

/** The two independent per-key allowances: reads (GET/HEAD) and writes (everything else). */
export type RateClass = 'read' | 'write';

/** Outcome of counting one request; carries everything the HTTP layer needs for rate headers. */
export interface RateDecision {
  allowed: boolean;
  /** The per-minute limit the request was checked against (`X-RateLimit-Limit`). */
  limit: number;
  /** Requests left in the current window, never negative (`X-RateLimit-Remaining`). */
  remaining: number;
  /** Unix seconds at which the allowance is full again (`X-RateLimit-Reset`). */
  resetAtUnixSeconds: number;
  /** Integer seconds ≥ 1 when blocked (`Retry-After`); 0 when allowed. */
  retryAfterSeconds: number;
}

export interface TrafficControl {
  /** Counts one request of this class for this key against limitPerMinute (every request counts, allowed or not). */
  consumeRate(keyId: string, rateClass: RateClass, limitPerMinute: number): Promise<RateDecision>;
  /** Takes one in-flight slot; returns a release function (idempotent: calling it twice releases once) or null when `max` are already in flight. */
  acquireSlot(keyId: string, max: number): Promise<(() => Promise<void>) | null>;
  /** Where the counters live: `redis` is shared by every process, `memory` by this one only. */
  readonly backend: 'memory' | 'redis';
  /** Resolves when the backend answers now; rejects with the reason otherwise (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export interface TrafficControlOptions {
  /** When set, counters live in Redis and are shared by every process using the same URL and prefix. */
  redisUrl?: string;
  clock: Clock;
  /** Prefix for every Redis key; defaults to `blogapi:`. Ignored by the memory backend. */
  keyPrefix?: string;
  /** Called (never awaited) when the Redis backend fails and a decision falls back to "allow". */
  onBackendError?: (err: unknown) => void;
}
