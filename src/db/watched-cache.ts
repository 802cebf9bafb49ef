// A bounded cache of values read from watched tables, dropped whenever those tables may have
// changed, and each valid only within the time window its value was computed for.
import type { TableWatch } from './database.js';

interface Entry<V> {
  value: V;
  /** The clock time the value was computed at; earlier times (a clock set back) miss. */
  from: number;
  /** The first clock time at which the value would differ (a scheduled post going live). */
  until: number;
  size: number;
}

export interface KeepOptions {
  /** Clock time the value was computed for. */
  now: number;
  /** First clock time the value is no longer right for (default: never, until a table changes). */
  until?: number;
  /** What the entry counts against the cache's budget, in the owner's unit (bytes, or 1 an entry). */
  size: number;
}

/**
 * Reads are kept only until the watched tables may have changed (any write to them through
 * this connection, any commit by another process; see TableWatch), so a read never returns
 * what a committed write has replaced. A value must be a pure function of its key, the watched
 * tables and the clock within [now, until): everything else it depends on goes in the key.
 * Least recently used entries are dropped beyond `budget`.
 */
export class WatchedCache<V, K = string> {
  private readonly entries = new Map<K, Entry<V>>();
  private stamp: number | null = null;
  private used = 0;

  constructor(
    private readonly watch: TableWatch,
    private readonly budget: number,
  ) {}

  /**
   * Call right before find() and the read: empties the cache if the tables changed, and returns
   * the read's stamp (null: the cache cannot be used for this read).
   */
  begin(): number | null {
    const stamp = this.watch.stamp();
    if (stamp === null) return null;
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.used = 0;
      this.stamp = stamp;
    }
    return stamp;
  }

  /** The value kept for `key` that is right at clock time `now`, given the stamp begin() returned. */
  find(stamp: number | null, key: K, now: number): V | undefined {
    if (stamp === null) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now < entry.from || now >= entry.until) {
      this.drop(key, entry);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps a value read after begin() returned `stamp`, unless the tables changed meanwhile. */
  keep(stamp: number | null, key: K, value: V, options: KeepOptions): void {
    if (stamp === null || options.size > this.budget || this.watch.stamp() !== stamp || stamp !== this.stamp) return;
    const previous = this.entries.get(key);
    if (previous) this.drop(key, previous);
    while (this.used + options.size > this.budget) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.drop(oldestKey, oldest);
    }
    this.entries.set(key, { value, from: options.now, until: options.until ?? Infinity, size: options.size });
    this.used += options.size;
  }

  private drop(key: K, entry: Entry<V>): void {
    this.entries.delete(key);
    this.used -= entry.size;
  }
}
