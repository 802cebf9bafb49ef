import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type Compilable, type CompiledQuery, type SqliteDatabase } from 'kysely';
import type { DatabaseConfig } from '../config/config.js';
import type { Database } from './schema.js';

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
  /** Statements sent to the database so far by this handle (a count, for tests and the benchmark). */
  queryCount(): number;
  /** Connections of the PostgreSQL pool now; null on SQLite (one connection, no pool). */
  poolUsage(): PoolUsage | null;
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
  onIdleError?: (err: Error) => void;
}

/**
 * version() returns a greater number after any change to the tables may have committed, or
 * null while it cannot tell (then nothing may be served from or put in a cache).
 */
export interface TableVersion {
  version(): number | null;
}

// pg returns int8 (bigint) columns and COUNT(*) as strings; every int8 here is an epoch-ms
// time, an id or a count, all far below 2^53, so numbers are safe and keep one code path.
pg.types.setTypeParser(20, (value: string) => Number(value));

export function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (config.engine === 'sqlite') {
    if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
    const sqlite = new BetterSqlite3(config.file);
    // WAL lets readers run beside the writer (the CLI is a second process); NORMAL sync in WAL
    // is durable against process crashes and keeps commits fast (see docs/operations.md).
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    // A checkpoint runs inside whichever commit crosses this many WAL pages; SQLite's 1,000
    // (4 MB) made about a quarter of a post's commit checkpoint work. 10,000 pages (40 MB of
    // WAL at most) checkpoints a tenth as often, and pages rewritten meanwhile are copied once.
    sqlite.pragma('wal_autocheckpoint = 10000');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const statements = new StatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
    return { db, engine: 'sqlite', tableVersion: (tables) => statements.tableVersion(tables), queryCount: () => statements.count, poolUsage: () => null, close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: options.poolSize ?? 10,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
  });
  // An idle client dying (server restart, failover) must not crash the process: pg drops the
  // client from the pool and the next query opens a fresh one.
  pool.on('error', (err) => options.onIdleError?.(err));
  // A connection lost while a query runs (server restart, network cut) fails that query, and pg
  // also emits 'error' on its client, which the pool listens to only while the client is idle:
  // without a listener of its own that event would end the process.
  pool.on('connect', (client) => client.on('error', (err) => options.onIdleError?.(err)));
  const counter = namePreparedStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const poolUsage = (): PoolUsage => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount, open: pool.totalCount });
  return { db, engine: 'postgres', tableVersion: () => null, queryCount: () => counter.count, poolUsage, close: () => db.destroy() };
}

/** Prepared statements kept per SQL text (least recently used dropped beyond this many). */
export const STATEMENT_CACHE_SIZE = 500;

interface KeptStatement {
  statement: BetterSqlite3.Statement;
  /** Versions of the tables this statement writes (none for a read). */
  writes: SqliteTableVersion[];
}

/**
 * Kysely's SQLite driver prepares every statement again on each call, which costs more than
 * running it (see docs/performance.md). The SQL texts repeat, so their prepared statements are
 * kept and reused. Safe because the driver runs one statement at a time on the one connection
 * (and SQLite re-prepares a kept statement by itself after a schema change).
 * The driver prepares a statement right before it runs it, so this is also where writes to
 * versioned tables are seen, and statements are counted.
 */
class StatementCache implements SqliteDatabase {
  private readonly statements = new Map<string, KeptStatement>();
  private readonly versions: SqliteTableVersion[] = [];
  /** Statements run so far (each is prepared, or found here, right before it runs). */
  count = 0;
  private readonly dataVersion: BetterSqlite3.Statement;

  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    private readonly size = STATEMENT_CACHE_SIZE,
  ) {
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  }

  close(): void {
    this.sqlite.close();
  }

  prepare(sql: string): BetterSqlite3.Statement {
    this.count++;
    let kept = this.statements.get(sql);
    if (kept) {
      this.statements.delete(sql);
    } else {
      const statement = this.sqlite.prepare(sql);
      kept = { statement, writes: statement.readonly ? [] : this.versions.filter((v) => v.isWrittenBy(sql)) };
      if (this.statements.size >= this.size) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, kept);
    for (const version of kept.writes) version.changed();
    return kept.statement;
  }

  tableVersion(tables: readonly string[]): TableVersion {
    const version = new SqliteTableVersion(tables, () => (this.sqlite.inTransaction ? null : (this.dataVersion.get() as number)));
    this.versions.push(version);
    // Statements kept before this version existed are classified again.
    for (const [sql, kept] of this.statements) if (!kept.statement.readonly && version.isWrittenBy(sql)) kept.writes.push(version);
    return version;
  }
}

/**
 * Changes come from two places: this connection's own writes (seen as the statements are
 * prepared, so before they run) and commits by any other connection or process (the CLI,
 * another instance), which SQLite reports through PRAGMA data_version. Any statement whose
 * text names one of the tables counts as a change to it, including a write that later rolls
 * back. While a transaction is open on the connection (another request's, between its awaits),
 * data_version shows that transaction's snapshot, not the latest commits, so the version is
 * null then: nothing is served or cached, and reads wait for the transaction as uncached.
 */
class SqliteTableVersion implements TableVersion {
  private readonly pattern: RegExp;
  private count = 0;
  private lastDataVersion: number | null | undefined;

  constructor(
    tables: readonly string[],
    /** null: the connection is inside a transaction and cannot tell. */
    private readonly readDataVersion: () => number | null,
  ) {
    this.pattern = new RegExp(`\\b(${tables.join('|')})\\b`, 'i');
  }

  isWrittenBy(sql: string): boolean {
    return this.pattern.test(sql);
  }

  changed(): void {
    this.count++;
  }

  version(): number | null {
    const dataVersion = this.readDataVersion();
    if (dataVersion === null) return null;
    if (dataVersion !== this.lastDataVersion) {
      this.lastDataVersion = dataVersion;
      this.count++;
    }
    return this.count;
  }
}

/** Server-side prepared statements per pool (each connection prepares each name once). */
export const PREPARED_STATEMENT_NAMES = 500;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Kysely sends every PostgreSQL query unnamed, so the server parses and plans it again each
 * time. Repeated data statements get a name instead: each connection then parses and plans
 * them once (pg keeps track per connection). Bounded, so unusual one-off texts stay unnamed.
 * PostgreSQL re-plans a named statement after a schema change by itself, except when its
 * result columns change (a `select *` after a migration added a column): that statement is
 * then sent unnamed from then on.
 */
function namePreparedStatements(pool: pg.Pool, max = PREPARED_STATEMENT_NAMES): { count: number } {
  const names = new Map<string, string | null>();
  const counter = { count: 0 };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
      counter.count++;
      if (typeof text === 'string' && Array.isArray(values) && rest.length === 0 && PREPARABLE.test(text)) {
        let name = names.get(text);
        if (name === undefined && names.size < max) names.set(text, (name = `blog_q${names.size + 1}`));
        if (name) {
          return query({ name, text, values }).catch((err: { code?: string }) => {
            if (err?.code !== '0A000') throw err;
            names.set(text, null);
            return query(text, values);
          });
        }
      }
      return query(text, values, ...rest);
    }) as typeof client.query;
  });
  return counter;
}

/** A placeholder for the n-th argument while a template query is built. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A hot query built and compiled once per database (per shape), then run with new arguments.
 * Kysely's builder and compiler cost several times what the statement itself costs on the
 * per-request paths. `build` receives `$` and must use `$(i)` wherever argument i goes (values
 * only, not lists: give a list's length as `shape` and use one `$` per element). It runs
 * through Kysely as any query does, so transactions and the connection lock still apply.
 */
export function queryTemplate<Row>(build: TemplateBuilder<Row>) {
  const run = compiledRunner(build);
  return async (db: Db, args: readonly unknown[], shape = 0): Promise<Row[]> => (await run(db, args, shape)).rows;
}

/** queryTemplate for writes whose outcome is how many rows they changed. */
export function writeTemplate(build: TemplateBuilder<unknown>) {
  const run = compiledRunner(build);
  return async (db: Db, args: readonly unknown[], shape = 0): Promise<number> => Number((await run(db, args, shape)).numAffectedRows ?? 0);
}

type TemplateBuilder<Row> = (db: Db, $: (index: number) => any, shape: number) => Compilable<Row>;

function compiledRunner<Row>(build: TemplateBuilder<Row>) {
  const compiled = new WeakMap<object, Map<number, { query: CompiledQuery<Row>; slots: Array<Slot | { value: unknown }> }>>();
  return (db: Db, args: readonly unknown[], shape: number) => {
    const adapter = db.getExecutor().adapter;
    let shapes = compiled.get(adapter);
    if (!shapes) compiled.set(adapter, (shapes = new Map()));
    let template = shapes.get(shape);
    if (!template) {
      const query = build(db, (index) => new Slot(index), shape).compile();
      template = { query, slots: query.parameters.map((p) => (p instanceof Slot ? p : { value: p })) };
      shapes.set(shape, template);
    }
    const parameters = template.slots.map((slot) => (slot instanceof Slot ? args[slot.index] : slot.value));
    return db.executeQuery<Row>({ ...template.query, parameters });
  };
}

/** True when an error is a unique/primary-key violation on either engine. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
