import type { Clock } from '../lib/clock.js';

import type { RedisConnection } from './redis-connection.js';
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

/** One request's admission: count it, and take an in-flight slot when it may go on. */
export interface AdmitRequest {
  keyId: string;
  rateClass: RateClass;
  limitPerMinute: number;
  concurrency: number;
  /** false: count only (the request is refused before it would hold a slot, e.g. wrong scope). */
  takeSlot: boolean;
  /**
   * Redis only: a hash read in the same round trip (its fields `keys`, `content`, `usage`,
   * `gen`; the cache versions of a store, see src/cache/shared-versions.ts).
   */
  hashKey?: string;
  /** Redis only: a string read in the same round trip (the cache versions' epoch marker). */
  markerKey?: string;
}

export interface Admission {
  decision: RateDecision;
  /** Requests counted in the window so far and its end: the decision again under another limit. */
  consumed: number;
  windowEndMs: number;
  /** The slot's release (idempotent); null when no slot was taken. */
  release: (() => Promise<void>) | null;
  /** A slot was asked for, the rate allowed it, and all `concurrency` were in use. */
  slotRefused: boolean;
  /** The hash's four fields when `hashKey` was given and Redis answered; otherwise null. */
  hash: Array<string | null> | null;
  /** The value at `markerKey` when given and Redis answered (null: absent or not read). */
  marker: string | null;
  /**
   * Redis failed and the decision was taken by this process's own counters (each process then
   * admits up to the limit on its own; docs/traffic-control.md, "When Redis fails").
   */
  local?: boolean;
}

export interface TrafficControl {
  /**
   * Counts the request and, when `takeSlot` and the rate allows, takes a slot: one Redis round
   * trip (one script) for what counting and acquireSlot would do in two. The memory backend
   * answers at once (no promise); Redis with a promise.
   */
  admit(request: AdmitRequest): Admission | Promise<Admission>;
  /** Statements sent to Redis by this process so far (0 without Redis); tests count them. */
  commandCount(): number;
  /** Takes one in-flight slot; returns a release function (idempotent: calling it twice releases once) or null when `max` are already in flight. */
  acquireSlot(keyId: string, max: number): Promise<(() => Promise<void>) | null>;
  /** Where the counters live: `redis` is shared by every process, `memory` by this one only. */
  readonly backend: 'memory' | 'redis';
  /** The Redis connection (null for memory), shared with what else keeps state in Redis. */
  readonly redis: RedisConnection | null;
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
  /** Called (never awaited) when the Redis backend fails and a decision falls back to this process's own counters. */
  onBackendError?: (err: unknown) => void;
}
