// Engine setup: opens SQLite (one connection, WAL) or a PostgreSQL pool behind one Kysely type.
// The statement caches live in sqlite-statements.ts and postgres-statements.ts, change watching
// for the caches in table-version.ts, compiled hot queries in query-template.ts.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, SqliteDialect } from 'kysely';
import type { DatabaseConfig } from '../config/config.js';
import { CircuitBreaker } from '../lib/circuit-breaker.js';
import { namePreparedStatements } from './postgres-statements.js';
import { BoundedPostgresDialect } from './postgres-driver.js';
import type { Database } from './schema.js';
import { StatementCache } from './sqlite-statements.js';
import type { TableVersion } from './table-version.js';

export type { TableVersion } from './table-version.js';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: Engine;
  /**
   * A version of some tables that this process reads without a query (SQLite), for the caches
   * (src/cache); null when the engine cannot tell without a query (PostgreSQL keeps its
   * versions in the cache_versions table instead).
   */
  tableVersion(tables: readonly string[]): TableVersion | null;
  /** SQLite: the argument of TableVersion.at(), read once for every version a request needs. */
  dataVersion(): number | null;
  /** Statements sent to the database so far by this handle (a count, for tests and the benchmark). */
  queryCount(): number;
  /** Connections of the PostgreSQL pool now; null on SQLite (one connection, no pool). */
  poolUsage(): PoolUsage | null;
  /**
   * Readiness: resolves when the database answers `select 1` now. PostgreSQL asks on a
   * connection of its own, so a pool busy with requests never reads as the database failing.
   */
  check(): Promise<void>;
  /** PostgreSQL: opens after repeated timeouts (src/db/postgres-driver.ts); null on SQLite. */
  breaker: CircuitBreaker | null;
  close(): Promise<void>;
}

export interface PoolUsage {
  /** Connections running a query or held by a transaction. */
  inUse: number;
  /** Requests waiting for a connection because all are in use. */
  waiting: number;
  /** Connections open now (in use and idle). */
  open: number;
}

export interface OpenDatabaseOptions {
  poolSize?: number;
  /** PostgreSQL ends any statement running longer than this (0: no limit). */
  statementTimeoutMs?: number;
  /** Giving up on opening a PostgreSQL connection after this long, instead of waiting forever. */
  connectTimeoutMs?: number;
  /** Longest wait for a pooled connection when all are in use (then 503). */
  poolWaitTimeoutMs?: number;
  /** The readiness check's bound (its own connection's connect and query timeouts). */
  checkTimeoutMs?: number;
  onIdleError?: (err: Error) => void;
  /** Each failure of the link to PostgreSQL (timeouts, lost connections, pool waits), for health. */
  onLinkFailure?: (err: Error) => void;
}

/**
 * The client-side query timeout, a little above the statement timeout: PostgreSQL ends a slow
 * statement itself, so only a statement it never received or whose answer never arrives (a cut
 * or hung link) reaches this one. None when the statement timeout is off.
 */
export const QUERY_TIMEOUT_MARGIN_MS = 1000;
/** TCP keepalive's first probe after this much silence: a peer gone without a word is noticed. */
const KEEPALIVE_DELAY_MS = 10_000;

// pg returns int8 (bigint) columns and COUNT(*) as strings; every int8 here is an epoch-ms
// time, an id or a count, all far below 2^53, so numbers are safe and keep one code path.
pg.types.setTypeParser(20, (value: string) => Number(value));

export function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (config.engine === 'sqlite') {
    if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
    const sqlite = new BetterSqlite3(config.file);
    // WAL lets readers run beside the writer (the CLI is a second process); NORMAL sync in WAL
    // is durable against process crashes and keeps commits fast (docs/performance.md,
    // "Durability settings and their cost").
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    // A checkpoint runs inside whichever commit crosses this many WAL pages; SQLite's 1,000
    // (4 MB) made about a quarter of a post's commit checkpoint work. 10,000 pages (40 MB of
    // WAL at most) checkpoints a tenth as often, and pages rewritten meanwhile are copied once.
    sqlite.pragma('wal_autocheckpoint = 10000');
    // The journals of savepoints and statements (every write of the group commit runs in a
    // savepoint) and the few temporary b-trees kept in memory instead of temporary files: each
    // page a savepoint first changes was written to such a file, a system call per page.
    sqlite.pragma('temp_store = MEMORY');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const statements = new StatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
    return {
      db,
      engine: 'sqlite',
      tableVersion: (tables) => statements.tableVersion(tables),
      dataVersion: () => statements.readDataVersion(),
      queryCount: () => statements.count,
      poolUsage: () => null,
      check: async () => {
        statements.prepare('select 1').get();
      },
      breaker: null,
      close: () => db.destroy(),
    };
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const checkTimeoutMs = options.checkTimeoutMs ?? 2000;
  const link = {
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
  // The pool's own connectionTimeoutMillis would bound the wait for a free connection and the
  // opening of a new one with one number; the driver bounds the wait (poolWaitTimeoutMs), and
  // each client bounds its own opening.
  const pool = new pg.Pool({
    connectionString: config.url,
    max: options.poolSize ?? 10,
    ...link,
    Client: clientWithConnectTimeout(connectTimeoutMs),
    ...(options.statementTimeoutMs
      ? {
          statement_timeout: options.statementTimeoutMs,
          query_timeout: options.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
        }
      : {}),
  });
  // Readiness and the breaker's probe: one connection of their own, each statement bounded.
  const health = new pg.Pool({
    connectionString: config.url,
    max: 1,
    ...link,
    Client: clientWithConnectTimeout(checkTimeoutMs),
    query_timeout: checkTimeoutMs,
    allowExitOnIdle: true,
  });
  health.on('error', (err) => options.onIdleError?.(err));
  const check = async (): Promise<void> => {
    await health.query('select 1');
  };
  // Two timeouts open it: PostgreSQL ends a slow statement itself (statement_timeout), so a query
  // that got no answer even a second past that means the server or the link is not answering.
  const breaker = new CircuitBreaker({ name: 'database', probe: check, threshold: 2 });
  // An idle client dying (server restart, failover) must not crash the process: pg drops the
  // client from the pool and the next query opens a fresh one.
  pool.on('error', (err) => options.onIdleError?.(err));
  // A connection lost while a query runs (server restart, network cut) fails that query, and pg
  // also emits 'error' on its client, which the pool listens to only while the client is idle:
  // without a listener of its own that event would end the process.
  pool.on('connect', (client) => client.on('error', (err) => options.onIdleError?.(err)));
  const counter = namePreparedStatements(pool);
  // Waits bounded, a breaker, failed connections dropped, a lost lone read tried again (postgres-driver.ts).
  const db = new Kysely<Database>({
    dialect: new BoundedPostgresDialect({
      pool,
      poolWaitTimeoutMs: options.poolWaitTimeoutMs,
      breaker,
      onFailure: (err) => options.onLinkFailure?.(err),
    }),
  });
  const poolUsage = (): PoolUsage => ({
    inUse: pool.totalCount - pool.idleCount,
    waiting: pool.waitingCount,
    open: pool.totalCount,
  });
  return {
    db,
    engine: 'postgres',
    tableVersion: () => null,
    dataVersion: () => null,
    queryCount: () => counter.count,
    poolUsage,
    check,
    breaker,
    close: async () => {
      await db.destroy();
      await health.end();
    },
  };
}

/**
 * pg's Client with its own time bound on opening a connection (see the pool above). A connection
 * given up on that way fails with pg's plain "Connection terminated", so the failure is marked
 * (`connectTimedOut`) for the breaker to count it as the timeout it is.
 */
function clientWithConnectTimeout(ms: number): typeof pg.Client {
  class BoundedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: ms });
    }
  }
  // The pool connects with a callback; a promise caller gets the same mark.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the client as `this` below
  const connect = pg.Client.prototype.connect as (this: pg.Client, callback?: (err: Error) => void) => unknown;
  BoundedClient.prototype.connect = function (this: pg.Client, callback?: (err: Error) => void) {
    const started = Date.now();
    const mark = (err: Error) => {
      if (err && Date.now() - started >= ms) Object.assign(err, { connectTimedOut: true });
      return err;
    };
    if (callback) return connect.call(this, (err: Error) => callback(mark(err)));
    return (connect.call(this) as Promise<unknown>).catch((err: Error) => Promise.reject(mark(err)));
  } as typeof BoundedClient.prototype.connect;
  return BoundedClient;
}

/** True when an error is a unique/primary-key violation on either engine. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
