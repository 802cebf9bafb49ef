// PostgreSQL with Redis: the cache versions of each store also kept in Redis, so that a cached
// read learns them in the one Redis call it makes anyway (its rate count and in-flight slot) and
// sends no query to PostgreSQL at all. PostgreSQL's cache_versions stays the record; Redis holds
// copies of its rows, filled by readers and dropped by writers. See docs/architecture.md, "Caches".
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { IDENTITY_SQL, namespaceOf } from '../db/database-identity.js';
import { isDatabaseAnswer, isDatabaseLinkFailure } from '../db/database-errors.js';
import { CircuitOpenError } from '../lib/circuit-breaker.js';
import { within } from '../lib/deadline.js';
import type { CacheVersions } from './cache.js';
import { GEN_FIELD, luaStrings, TOPIC_FIELDS, TOPICS, VERSION_COLUMNS, type VersionColumn } from './topics.js';
import { versionsFromRow } from './versions.js';

/** service_settings row naming the Redis namespace; its presence says the fleet keeps versions in Redis. */
export const SHARED_VERSIONS_SETTING = 'cache_versions_redis';

/**
 * How often an instance looks for rows changed by writers that did not drop their copy (a crash):
 * the reconcile job (src/context.ts), without jitter, since DROP_RETRY_MS counts on it.
 */
export const RECONCILE_INTERVAL_MS = 1000;

const FIELDS = luaStrings(TOPIC_FIELDS);
const GEN = luaStrings([GEN_FIELD]);

/*
 * A store's hash: a field per topic (src/cache/topics.ts; copies of its cache_versions row,
 * absent after a write) and `gen` (grows with every drop). A reader that finds no copy reads the
 * row from PostgreSQL and puts it back only if `gen` is still what it saw before that read: a
 * copy read before a commit can never be put back after the writer's drop.
 * ARGV: the gen seen, then the versions in the order of the topics.
 */
const FILL = `
local gen = redis.call('HGET', KEYS[1], ${GEN}) or ''
if gen ~= ARGV[1] then return 0 end
local names = {${FIELDS}}
for i = 1, #names do
  local current = redis.call('HGET', KEYS[1], names[i])
  if not current or tonumber(current) < tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[1], names[i], ARGV[i + 1])
  end
end
return 1
`;

// Drops free memory, so they run even when Redis is at maxmemory with noeviction (Redis 7
// script flags): a write is never left unannounced because Redis is full.
const DROP = `#!lua flags=allow-oom
for i = 1, #KEYS do
  redis.call('HDEL', KEYS[i], ${FIELDS})
  redis.call('HINCRBY', KEYS[i], ${GEN}, 1)
end
return #KEYS
`;

/**
 * Drops the copies that are stale against the rows read from PostgreSQL. ARGV[1]: 'behind'
 * drops a copy when one of its versions is below the row's, 'unequal' when any differs (the
 * check after Redis came back); then the row's versions, one per topic, key after key.
 */
const DROP_STALE = `#!lua flags=allow-oom
local names = {${FIELDS}}
local unequal = ARGV[1] == 'unequal'
local dropped = 0
for i = 1, #KEYS do
  for j = 1, #names do
    local current = redis.call('HGET', KEYS[i], names[j])
    local row = tonumber(ARGV[1 + (i - 1) * #names + j])
    if current and (tonumber(current) < row or (unequal and tonumber(current) ~= row)) then
      redis.call('HDEL', KEYS[i], ${FIELDS})
      redis.call('HINCRBY', KEYS[i], ${GEN}, 1)
      dropped = dropped + 1
      break
    end
  end
end
return dropped
`;

type Script = (...args: Array<string | number>) => Promise<number>;

/** `'keys_version', keys_version, ...`: the versions of a cache_versions row in json_build_object. */
const ROW_OBJECT_FIELDS = sql.raw(VERSION_COLUMNS.map((column) => `'${column}', ${column}`).join(', '));

/** A store's versions as script arguments, in the order of the topics. */
function versionsAsArgs(versions: CacheVersions): number[] {
  return TOPICS.map((topic) => versions[topic.name] ?? 0);
}

/** The copies in the hash's fields read by the admission script, or null when any is missing. */
function versionsFromFields(fields: ReadonlyArray<string | null>): CacheVersions | null {
  const versions = {} as CacheVersions;
  for (let i = 0; i < TOPICS.length; i++) {
    const field = fields[i];
    if (field === null || field === undefined) return null;
    versions[TOPICS[i]!.name] = Number(field);
  }
  return versions;
}

/** The hash's fields as read by the admission script: versions, or null when there is no copy or it cannot be trusted. */
export interface SharedRead {
  versions: CacheVersions | null;
  gen: string;
  /** The connection epoch the read was trusted under (-1: not trusted; nothing may be put back). */
  epoch: number;
}

/**
 * How long a writer whose drop failed waits before it answers anyway: for Redis to come back (it
 * then drops again), and otherwise long enough for every process that reaches Redis to have
 * reconciled since the commit (an interval, and half of one for the look itself), so the write is
 * seen everywhere by the time it is acknowledged.
 */
export const DROP_RETRY_MS = RECONCILE_INTERVAL_MS + 500;

/*
 * Trust. The copies are used only while this process knows they were checked against
 * PostgreSQL since Redis last came back. Anything that may mean Redis went back in time or lost
 * writes makes the process stop trusting them: the connection closing (a restart, a failover, a
 * snapshot loaded), an error of its own fill, drop or reconcile (a drop that failed leaves a copy
 * that may be behind; an admission that failed uses no copy, so it needs nothing), and the epoch
 * marker missing (a flush, an eviction) or changed (another process saw Redis come back).
 * Until then requests read their versions from PostgreSQL and put nothing back. The next
 * reconcile then checks every store's copy against its row, dropping those that differ, and sets
 * the marker (a new one after a reconnect, so processes whose connection stayed up check too).
 */
export class SharedVersions {
  private readonly fillScript: Script;
  private readonly dropScript: Script;
  private readonly dropStaleScript: Script;
  /** `<keyPrefix>versions:<namespace>:`, then the store id. */
  private prefix: string;
  /** xid8 horizon of the previous reconcile's snapshot (null: look at every row). */
  private horizon: string | null = null;
  private trusted = false;
  /** Grows whenever trust is lost: a check or a fill begun before that counts for nothing. */
  private epoch = 0;
  /** The marker value this process checked under (null: none yet). */
  private marker: string | null = null;
  /** The connection closed since the last check: the check sets a new marker. */
  private reconnected = false;
  /** Test hook: checks the copies against PostgreSQL after Redis came back (false only to show what breaks without). */
  checkAfterReturn = true;

  constructor(
    private readonly client: Redis,
    private readonly db: Db,
    private readonly keyPrefix: string,
    /** Random per database (service_settings); with the identity, two databases never share a copy. */
    private readonly secret: string,
    /** The database's identity (src/db/database-identity.ts) when the process started. */
    private identity: string,
    private readonly report: (err: unknown) => void,
    /** Resolves once the client's first connection attempt has settled (the traffic connection's). */
    private readonly ready: () => Promise<void> = async () => {},
    /** Where errors PostgreSQL answered with go (the database's health). */
    private readonly reportDatabase: (err: unknown) => void = () => {},
  ) {
    this.prefix = this.prefixFor(identity);
    const define = (name: string, lua: string): Script => {
      const own = client as unknown as Record<string, Script | undefined>;
      if (!own[name]) client.defineCommand(name, { lua });
      const command = (client as unknown as Record<string, Script>)[name];
      return (...args) => command.call(client, ...args);
    };
    this.fillScript = define('blogVersionsFill', FILL);
    this.dropScript = define('blogVersionsDrop', DROP);
    this.dropStaleScript = define('blogVersionsDropStale', DROP_STALE);
    client.on('close', () => {
      this.reconnected = true;
      this.distrust();
    });
  }

  private prefixFor(identity: string): string {
    return `${this.keyPrefix}versions:${namespaceOf(this.secret, identity)}:`;
  }

  keyOf(storeId: number): string {
    return this.prefix + storeId;
  }

  /** The epoch marker: set by the check after Redis came back, read with every admission. */
  markerKey(): string {
    return this.prefix + 'epoch';
  }

  /** Whether copies are used now (tests and /readyz). */
  get isTrusted(): boolean {
    return this.trusted;
  }

  /** Stops using the copies until the next check (see "Trust" above). */
  distrust(): void {
    this.trusted = false;
    this.epoch += 1;
  }

  /** The admission script's read of the hash (the topics' fields, then gen; REDIS_HASH_FIELDS) and of the marker. */
  parse(fields: Array<string | null> | null, marker: string | null = this.marker): SharedRead | null {
    if (!fields) return null;
    if (this.trusted && marker !== this.marker) this.distrust();
    const generation = fields[TOPICS.length] ?? '';
    if (!this.trusted) return { versions: null, gen: generation, epoch: -1 };
    return { versions: versionsFromFields(fields), gen: generation, epoch: this.epoch };
  }

  /** Puts back a copy read from PostgreSQL after `read` was made; not awaited by the request. */
  fill(storeId: number, read: SharedRead, versions: CacheVersions): void {
    if (!this.trusted || read.epoch !== this.epoch) return;
    this.fillScript(1, this.keyOf(storeId), read.gen, ...versionsAsArgs(versions)).catch((err) => this.fail(err));
  }

  /**
   * A fill, drop or reconcile failed: the copies are not used until the next check, and the
   * error is reported, as Redis's. Not reported: a command refused because Redis's breaker is
   * open (its opening was the report), and a link failure of the reconcile's PostgreSQL query
   * (counted against the database by its driver). What PostgreSQL itself refused goes to
   * `reportDatabase`: never counted against Redis.
   */
  fail(err: unknown): void {
    this.distrust();
    if (err instanceof CircuitOpenError || isDatabaseLinkFailure(err)) return;
    if (isDatabaseAnswer(err)) this.reportDatabase(err);
    else this.report(err);
  }

  /**
   * A writer, after its commit and before it answers: the next reader reads the rows again.
   * When Redis does not answer, waits up to DROP_RETRY_MS for it to come back and tries once
   * more, so a Redis restarting under load does not let a copy read before the commit stay;
   * when that fails too, rejects only once DROP_RETRY_MS have passed (every other process's
   * reconcile has found the row by then).
   */
  async drop(storeIds: readonly number[]): Promise<void> {
    if (storeIds.length === 0) return;
    const keys = storeIds.map((id) => this.keyOf(id));
    const startedAt = Date.now();
    // Both tries end by DROP_RETRY_MS from the start: a hung Redis makes a write wait that long
    // at most, not a command timeout per try.
    const left = () => Math.max(0, DROP_RETRY_MS - (Date.now() - startedAt));
    try {
      await within(this.dropScript(keys.length, ...keys), left(), 'cache version drop timed out (DROP_RETRY_MS)');
      return;
    } catch (err) {
      this.fail(err);
    }
    await this.whenReady(left());
    try {
      await within(this.dropScript(keys.length, ...keys), left(), 'cache version drop timed out (DROP_RETRY_MS)');
    } catch (err) {
      this.fail(err);
      if (left() > 0) await new Promise((resolve) => setTimeout(resolve, left()).unref());
      throw err;
    }
  }

  private whenReady(ms: number): Promise<void> {
    if (this.client.status === 'ready') return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        this.client.off('ready', done);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.client.on('ready', done);
    });
  }

  /** Fails when Redis does not answer (the CLI checks before it changes anything). */
  async check(): Promise<void> {
    await this.client.ping();
  }

  /** The horizon now: every transaction that commits later has an xid at or above it. */
  async horizonNow(): Promise<string> {
    const { rows } = await sql<{
      horizon: string;
    }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`.execute(this.db);
    return rows[0]!.horizon;
  }

  /**
   * Drops the copies of every store whose row changed in a transaction not yet visible at
   * `since` (all stores when null): all of them (`all`), those behind the row (`behind`) or those
   * not equal to it (`unequal`). Returns the new horizon and the database's identity. The rows,
   * the horizon and the identity come from one statement, so from one snapshot: a transaction
   * missing from it commits with an xid at or above that horizon and is found by the next call.
   */
  async dropChangedSince(
    since: string | null,
    mode: 'all' | 'behind' | 'unequal',
  ): Promise<{ horizon: string; identity: string }> {
    const { rows } = await sql<{
      horizon: string;
      identity: string;
      changed: Array<{ store_id: number } & Record<VersionColumn, number>> | null;
    }>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon, ${IDENTITY_SQL} AS identity,
        (SELECT json_agg(json_build_object('store_id', store_id, ${ROW_OBJECT_FIELDS}))
           FROM cache_versions WHERE ${since === null ? sql`true` : sql`changed_xid >= ${since}::xid8`}) AS changed`.execute(
      this.db,
    );
    const { horizon, identity, changed } = rows[0]!;
    const prefix = this.prefixFor(identity);
    for (let i = 0; changed && i < changed.length; i += 500) {
      const batch = changed.slice(i, i + 500);
      const keys = batch.map((row) => prefix + Number(row.store_id));
      if (mode === 'all') {
        await this.dropScript(keys.length, ...keys);
        continue;
      }
      const args = batch.flatMap((row) => versionsAsArgs(versionsFromRow(row)));
      await this.dropStaleScript(batch.length, ...keys, mode, ...args);
    }
    return { horizon, identity };
  }

  /**
   * One look: for copies left behind (a writer that died between its commit and its drop), and,
   * when the copies are not trusted, the check of every copy against its row. A database whose
   * identity changed (restored, recovered to a point in time) gets a new namespace: every copy of
   * its lost history is out of sight at once.
   */
  async reconcile(): Promise<void> {
    await this.ready();
    const epoch = this.epoch;
    if (this.trusted) {
      const { horizon, identity } = await this.dropChangedSince(this.horizon, 'behind');
      if (identity === this.identity) {
        this.horizon = horizon;
        return;
      }
      this.identity = identity;
      this.prefix = this.prefixFor(identity);
      this.horizon = null;
      this.distrust();
      return;
    }
    if (!this.checkAfterReturn) {
      this.trusted = true;
      return;
    }
    const rotate = this.reconnected;
    this.reconnected = false;
    const before = await this.client.get(this.markerKey());
    const { horizon, identity } = await this.dropChangedSince(null, 'unequal');
    if (identity !== this.identity) {
      this.identity = identity;
      this.prefix = this.prefixFor(identity);
      this.horizon = null;
      return;
    }
    let marker = before;
    if (rotate || marker === null) {
      marker = randomUUID();
      await this.client.set(this.markerKey(), marker);
    }
    if (epoch !== this.epoch) return;
    this.marker = marker;
    this.horizon = horizon;
    this.trusted = true;
  }
}
