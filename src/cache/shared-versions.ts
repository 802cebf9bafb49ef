// PostgreSQL with Redis: the cache versions of each store also kept in Redis, so that a cached
// read learns them in the one Redis call it makes anyway (its rate count and in-flight slot) and
// sends no query to PostgreSQL at all. PostgreSQL's cache_versions stays the record; Redis holds
// copies of its rows, filled by readers and dropped by writers. See docs/architecture.md, "Caches".
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { systemTimers, type Timers } from '../lib/timers.js';
import type { CacheVersions } from './cache.js';
import { versionsFromRow } from './versions.js';

/** service_settings row naming the Redis namespace; its presence says the fleet keeps versions in Redis. */
export const SHARED_VERSIONS_SETTING = 'cache_versions_redis';

/** How often an instance looks for rows changed by writers that did not drop their copy (a crash). */
export const RECONCILE_INTERVAL_MS = 1000;

/*
 * A store's hash: `keys`, `content`, `usage` (copies of its cache_versions row, absent after a
 * write) and `gen` (grows with every drop). A reader that finds no copy reads the row from
 * PostgreSQL and puts it back only if `gen` is still what it saw before that read: a copy read
 * before a commit can never be put back after the writer's drop.
 */
const FILL = `
local gen = redis.call('HGET', KEYS[1], 'gen') or ''
if gen ~= ARGV[1] then return 0 end
local names = {'keys', 'content', 'usage'}
for i = 1, 3 do
  local current = redis.call('HGET', KEYS[1], names[i])
  if not current or tonumber(current) < tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[1], names[i], ARGV[i + 1])
  end
end
return 1
`;

const DROP = `
for i = 1, #KEYS do
  redis.call('HDEL', KEYS[i], 'keys', 'content', 'usage')
  redis.call('HINCRBY', KEYS[i], 'gen', 1)
end
return #KEYS
`;

/** Drops a copy only when it is behind the row read from PostgreSQL (ARGV: three numbers a key). */
const DROP_BEHIND = `
local names = {'keys', 'content', 'usage'}
local dropped = 0
for i = 1, #KEYS do
  for j = 1, 3 do
    local current = redis.call('HGET', KEYS[i], names[j])
    if current and tonumber(current) < tonumber(ARGV[(i - 1) * 3 + j]) then
      redis.call('HDEL', KEYS[i], 'keys', 'content', 'usage')
      redis.call('HINCRBY', KEYS[i], 'gen', 1)
      dropped = dropped + 1
      break
    end
  end
end
return dropped
`;

type Script = (...args: Array<string | number>) => Promise<number>;

/** The hash's fields as read by the admission script: versions, or null when there is no copy. */
export interface SharedRead {
  versions: CacheVersions | null;
  gen: string;
}

export class SharedVersions {
  private readonly fillScript: Script;
  private readonly dropScript: Script;
  private readonly dropBehindScript: Script;
  /** `<keyPrefix>versions:<namespace>:`, then the store id. */
  private readonly prefix: string;
  /** xid8 horizon of the previous reconcile's snapshot (null: look at every row). */
  private horizon: string | null = null;
  private timer: unknown = null;
  private timers: Timers = systemTimers;
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: Redis,
    private readonly db: Db,
    keyPrefix: string,
    /** Random per database (service_settings): two databases never share a copy. */
    namespace: string,
    private readonly report: (err: unknown) => void,
    /** Resolves once the client's first connection attempt has settled (the traffic connection's). */
    private readonly ready: () => Promise<void> = async () => {},
  ) {
    this.prefix = `${keyPrefix}versions:${namespace}:`;
    const define = (name: string, lua: string): Script => {
      const own = client as unknown as Record<string, Script | undefined>;
      if (!own[name]) client.defineCommand(name, { lua });
      const command = (client as unknown as Record<string, Script>)[name];
      return (...args) => command.call(client, ...args);
    };
    this.fillScript = define('blogVersionsFill', FILL);
    this.dropScript = define('blogVersionsDrop', DROP);
    this.dropBehindScript = define('blogVersionsDropBehind', DROP_BEHIND);
  }

  keyOf(storeId: number): string {
    return this.prefix + storeId;
  }

  /** The admission script's read of the hash (fields keys, content, usage, gen). */
  parse(fields: Array<string | null> | null): SharedRead | null {
    if (!fields) return null;
    const [keys, content, usage, gen] = fields;
    const versions = keys !== null && content !== null && usage !== null ? { keys: Number(keys), content: Number(content), usage: Number(usage) } : null;
    return { versions, gen: gen ?? '' };
  }

  /** Puts back a copy read from PostgreSQL after `gen` was seen; not awaited by the request. */
  fill(storeId: number, gen: string, versions: CacheVersions): void {
    this.fillScript(1, this.keyOf(storeId), gen, versions.keys ?? 0, versions.content ?? 0, versions.usage ?? 0).catch(this.report);
  }

  /** A writer, after its commit and before it answers: the next reader reads the rows again. */
  async drop(storeIds: readonly number[]): Promise<void> {
    if (storeIds.length === 0) return;
    await this.dropScript(storeIds.length, ...storeIds.map((id) => this.keyOf(id)));
  }

  /** Fails when Redis does not answer (the CLI checks before it changes anything). */
  async check(): Promise<void> {
    await this.client.ping();
  }

  /** The horizon now: every transaction that commits later has an xid at or above it. */
  async horizonNow(): Promise<string> {
    const { rows } = await sql<{ horizon: string }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`.execute(this.db);
    return rows[0]!.horizon;
  }

  /**
   * Drops the copies of every store whose row changed in a transaction not yet visible at
   * `since` (all stores when null); returns the new horizon. The rows and the horizon come from
   * one statement, so from one snapshot: a transaction missing from it commits with an xid at or
   * above that horizon and is found by the next call.
   */
  async dropChangedSince(since: string | null, onlyBehind: boolean): Promise<string> {
    const { rows } = await sql<{ horizon: string; changed: Array<{ store_id: number; keys_version: number; content_version: number; usage_version: number }> | null }>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,
        (SELECT json_agg(json_build_object('store_id', store_id, 'keys_version', keys_version, 'content_version', content_version, 'usage_version', usage_version))
           FROM cache_versions WHERE ${since === null ? sql`true` : sql`changed_xid >= ${since}::xid8`}) AS changed`.execute(this.db);
    const { horizon, changed } = rows[0]!;
    for (let i = 0; changed && i < changed.length; i += 500) {
      const batch = changed.slice(i, i + 500);
      if (onlyBehind) {
        const args = batch.flatMap((row) => {
          const v = versionsFromRow(row);
          return [v.keys ?? 0, v.content ?? 0, v.usage ?? 0];
        });
        await this.dropBehindScript(batch.length, ...batch.map((row) => this.keyOf(Number(row.store_id))), ...args);
      } else {
        await this.drop(batch.map((row) => Number(row.store_id)));
      }
    }
    return horizon;
  }

  /** One look for copies left behind (a writer that died between its commit and its drop). */
  async reconcile(): Promise<void> {
    await this.ready();
    this.horizon = await this.dropChangedSince(this.horizon, true);
  }

  /** Reconciles at once, then every `intervalMs` after the previous look ended, until stop(). */
  start(intervalMs = RECONCILE_INTERVAL_MS, timers: Timers = systemTimers): void {
    if (this.timer !== null) return;
    this.timers = timers;
    const tick = () => {
      this.running = this.reconcile()
        .catch(this.report)
        .finally(() => {
          this.running = null;
          if (this.timer !== null) this.timer = timers.setTimeout(tick, intervalMs);
        });
    };
    this.timer = timers.setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
