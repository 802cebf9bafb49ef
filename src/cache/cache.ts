// The one cache every read cached between requests goes through (verified keys,
// identities, presented posts and list pages). See docs/architecture.md, "Caches".
import { LRUCache } from 'lru-cache';
import { TOPIC_NAMES, type Topic } from './topics.js';

/**
 * The versions of what cached values are read from, as seen at the start of a request, one per
 * topic (src/cache/topics.ts). A write to a topic's tables gives it a new version; a value cached
 * under an older version is never served again. null: this request cannot tell (then nothing is
 * served or cached).
 */
export type CacheVersions = { [T in Topic]: number | null };

/** Nothing may be served from or put in a cache. */
export const NO_VERSIONS: Readonly<CacheVersions> = Object.freeze(
  Object.fromEntries(TOPIC_NAMES.map((topic) => [topic, null])) as CacheVersions,
);

export interface CacheSetOptions {
  /** The topic's version read before the value was read (null: not cached). */
  version: number | null;
  /** Clock time the value was computed for; earlier times (a clock set back) miss. */
  now: number;
  /** First clock time the value is no longer right for (a scheduled post going live). Default: never. */
  until?: number;
  /** Rough bytes the value holds, counted against the cache's budget. */
  size: number;
}

interface Entry<V> {
  value: V;
  version: number;
  from: number;
  until: number;
}

/**
 * A value is right for the version it was read under and the clock window [now, until); the
 * key carries everything else it depends on. Least recently used entries go beyond the byte
 * budget (lru-cache). Versions only grow, so an entry older than the version in hand is dropped,
 * and a value read under an older version never replaces a newer one.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- lru-cache's own bound: any value but null or undefined
export class Cache<K extends {}, V extends {}> {
  private readonly entries: LRUCache<K, Entry<V>>;

  constructor(readonly maxBytes: number) {
    this.entries = new LRUCache<K, Entry<V>>({ maxSize: Math.max(1, maxBytes) });
  }

  get(key: K, version: number | null, now: number): V | undefined {
    if (version === null) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || now < entry.from || now >= entry.until) {
      if (entry.version < version || now >= entry.until) this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The entry cached for `key` under any version, without counting as a use. */
  peek(key: K): V | undefined {
    return this.entries.peek(key)?.value;
  }

  set(key: K, value: V, options: CacheSetOptions): void {
    const { version, size } = options;
    if (version === null || size > this.maxBytes) return;
    const current = this.entries.peek(key);
    if (current && current.version > version) return;
    this.entries.set(
      key,
      { value, version, from: options.now, until: options.until ?? Infinity },
      { size: Math.max(1, Math.ceil(size)) },
    );
  }

  invalidate(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
