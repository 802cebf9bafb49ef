import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DatabaseConfig } from '../config/config.js';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

// pg returns int8 (bigint) columns and COUNT(*) as strings; every int8 here is an epoch-ms
// time, an id or a count, all far below 2^53, so numbers are safe and keep one code path.
pg.types.setTypeParser(20, (value: string) => Number(value));

export function openDatabase(config: DatabaseConfig, options: { poolSize?: number; onIdleError?: (err: Error) => void } = {}): DatabaseHandle {
  if (config.engine === 'sqlite') {
    if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
    const sqlite = new BetterSqlite3(config.file);
    // WAL lets readers run beside the writer (the CLI is a second process); NORMAL sync in WAL
    // is durable against process crashes and keeps commits fast (see docs/operations.md).
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, engine: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: config.url, max: options.poolSize ?? 10 });
  // An idle client dying (server restart, failover) must not crash the process: pg drops the
  // client from the pool and the next query opens a fresh one.
  pool.on('error', (err) => options.onIdleError?.(err));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

/** True when an error is a unique/primary-key violation on either engine. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
