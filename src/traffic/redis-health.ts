// What Redis has been failing with, for the operator: every error of every Redis user in the
// process (limits, cache versions) is sorted into a kind, counted (the metric
// blog_api_redis_errors_total), shown by /readyz under `warnings` while recent, and logged at
// most once per interval per kind. See docs/operations.md, "Redis".
import type { Clock } from '../lib/clock.js';

export const REDIS_ERROR_KINDS = ['out_of_memory', 'read_only', 'timeout', 'unreachable', 'other'] as const;
export type RedisErrorKind = (typeof REDIS_ERROR_KINDS)[number];

/** How long an error kind stays in /readyz's warnings, and the least time between two log lines of one kind. */
export const REDIS_WARNING_WINDOW_MS = 60_000;

const KIND_PATTERNS: Array<[RedisErrorKind, RegExp]> = [
  ['out_of_memory', /\bOOM\b|maxmemory/i],
  ['read_only', /\bREADONLY\b|read only replica/i],
  ['timeout', /timed? ?out/i],
  [
    'unreachable',
    /ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EHOSTUNREACH|Connection is closed|Stream isn't writeable|enableOfflineQueue|connect|LOADING|MASTERDOWN/i,
  ],
];

/** The kind of a Redis failure, read from its message and the messages of its causes. */
export function redisErrorKind(err: unknown): RedisErrorKind {
  const messages: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth += 1) {
    messages.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  // The innermost cause is Redis's own words; the wrappers only say what was being done.
  for (const message of messages.reverse()) {
    for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(message)) return kind;
  }
  return 'other';
}

export interface RedisErrorLogEntry {
  kind: RedisErrorKind;
  err: unknown;
  /** Errors of this kind not logged since the previous line of this kind. */
  suppressed: number;
}

export interface RecentRedisErrors {
  kind: RedisErrorKind;
  /** Errors of this kind in the last REDIS_WARNING_WINDOW_MS (counted since the window began). */
  count: number;
  lastAtMs: number;
}

export class RedisHealth {
  private readonly totals = new Map<RedisErrorKind, number>();
  private readonly recentByKind = new Map<RedisErrorKind, { firstAtMs: number; lastAtMs: number; count: number }>();
  private readonly loggedAt = new Map<RedisErrorKind, number>();
  private readonly suppressed = new Map<RedisErrorKind, number>();
  private readonly listeners = new Set<(kind: RedisErrorKind, err: unknown) => void>();
  private log: ((entry: RedisErrorLogEntry) => void) | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = REDIS_WARNING_WINDOW_MS,
  ) {}

  /** Where the one line per kind and interval goes (the server's log). */
  setLog(log: (entry: RedisErrorLogEntry) => void): void {
    this.log = log;
  }

  /** Called on every error, after it is counted (metrics, the cache versions' distrust). */
  onError(listener: (kind: RedisErrorKind, err: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Never throws: a faulty listener or logger must not turn a fallback into a 500. */
  record(err: unknown): RedisErrorKind {
    const kind = redisErrorKind(err);
    const now = this.clock.now().getTime();
    this.totals.set(kind, (this.totals.get(kind) ?? 0) + 1);
    const recent = this.recentByKind.get(kind);
    if (recent && now - recent.lastAtMs < this.windowMs) {
      recent.count += 1;
      recent.lastAtMs = now;
    } else {
      this.recentByKind.set(kind, { firstAtMs: now, lastAtMs: now, count: 1 });
    }
    const last = this.loggedAt.get(kind);
    if (last === undefined || now - last >= this.windowMs || now < last) {
      this.loggedAt.set(kind, now);
      const suppressed = this.suppressed.get(kind) ?? 0;
      this.suppressed.set(kind, 0);
      try {
        this.log?.({ kind, err, suppressed });
      } catch {
        // Deliberately ignored, see above.
      }
    } else {
      this.suppressed.set(kind, (this.suppressed.get(kind) ?? 0) + 1);
    }
    for (const listener of this.listeners) {
      try {
        listener(kind, err);
      } catch {
        // Deliberately ignored, see above.
      }
    }
    return kind;
  }

  total(kind: RedisErrorKind): number {
    return this.totals.get(kind) ?? 0;
  }

  /** The kinds seen in the last window, in a fixed order. */
  recent(): RecentRedisErrors[] {
    const now = this.clock.now().getTime();
    const out: RecentRedisErrors[] = [];
    for (const kind of REDIS_ERROR_KINDS) {
      const seen = this.recentByKind.get(kind);
      if (seen && now - seen.lastAtMs < this.windowMs && now >= seen.firstAtMs)
        out.push({ kind, count: seen.count, lastAtMs: seen.lastAtMs });
    }
    return out;
  }
}
