// What a dependency (Redis, PostgreSQL) has been failing with, for the operator: every error is
// sorted into a kind, counted (a metric per dependency), shown by /readyz under `warnings` while
// recent, and logged at most once per interval per kind, so an outage costs a few log lines, not
// one per request. See docs/operations.md.
import type { Clock } from './clock.js';

/** How long an error kind stays in /readyz's warnings, and the least time between two log lines of one kind. */
export const DEPENDENCY_WARNING_WINDOW_MS = 60_000;

export interface ErrorLogEntry<K extends string> {
  kind: K;
  err: unknown;
  /** Errors of this kind not logged since the previous line of this kind. */
  suppressed: number;
}

export interface RecentErrors<K extends string> {
  kind: K;
  /** Errors of this kind in the last window (counted since the window began). */
  count: number;
  lastAtMs: number;
}

export class DependencyHealth<K extends string> {
  private readonly totals = new Map<K, number>();
  private readonly recentByKind = new Map<K, { firstAtMs: number; lastAtMs: number; count: number }>();
  private readonly loggedAt = new Map<K, number>();
  private readonly suppressed = new Map<K, number>();
  private readonly listeners = new Set<(kind: K, err: unknown) => void>();
  private log: ((entry: ErrorLogEntry<K>) => void) | null = null;

  constructor(
    private readonly clock: Clock,
    /** Every kind, in the order warnings list them. */
    private readonly kinds: readonly K[],
    private readonly classify: (err: unknown) => K,
    private readonly windowMs = DEPENDENCY_WARNING_WINDOW_MS,
  ) {}

  /** Where the one line per kind and interval goes (the server's log). */
  setLog(log: (entry: ErrorLogEntry<K>) => void): void {
    this.log = log;
  }

  /** Called on every error, after it is counted (metrics, the cache versions' distrust). */
  onError(listener: (kind: K, err: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Never throws: a faulty listener or logger must not turn a fallback into a 500. */
  record(err: unknown): K {
    const kind = this.classify(err);
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

  total(kind: K): number {
    return this.totals.get(kind) ?? 0;
  }

  /** The kinds seen in the last window, in a fixed order. */
  recent(): RecentErrors<K>[] {
    const now = this.clock.now().getTime();
    const out: RecentErrors<K>[] = [];
    for (const kind of this.kinds) {
      const seen = this.recentByKind.get(kind);
      if (seen && now - seen.lastAtMs < this.windowMs && now >= seen.firstAtMs)
        out.push({ kind, count: seen.count, lastAtMs: seen.lastAtMs });
    }
    return out;
  }
}
