// The prepared-statement cache of the SQLite connection.
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';
import { SqliteTableVersion, type TableVersion } from './table-version.js';
import { WalIndexHeader } from './wal-index-header.js';

/** Prepared statements cached per SQL text (least recently used dropped beyond this many). */
export const STATEMENT_CACHE_SIZE = 500;

interface CachedStatement {
  statement: BetterSqlite3.Statement;
  /** Versions of the tables this statement writes (none for a read). */
  writes: SqliteTableVersion[];
}

/**
 * Kysely's SQLite driver prepares every statement again on each call, which costs more than
 * running it (see docs/performance.md). The SQL texts repeat, so their prepared statements are
 * cached and reused. Safe because the driver runs one statement at a time on the one connection
 * (and SQLite re-prepares a cached statement by itself after a schema change).
 * The driver prepares a statement right before it runs it, so this is also where writes to
 * versioned tables are seen, and statements are counted.
 */
export class StatementCache implements SqliteDatabase {
  private readonly statements: LRUCache<string, CachedStatement>;
  private readonly versions: SqliteTableVersion[] = [];
  /** Statements run so far (each is prepared, or found here, right before it runs). */
  count = 0;
  private readonly dataVersion: BetterSqlite3.Statement;
  private readonly walIndex: WalIndexHeader | null;
  private lastDataVersion = 0;

  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    size = STATEMENT_CACHE_SIZE,
  ) {
    this.statements = new LRUCache({ max: size });
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    this.walIndex = sqlite.memory ? null : WalIndexHeader.open(sqlite.name);
  }

  close(): void {
    this.walIndex?.close();
    this.sqlite.close();
  }

  prepare(sql: string): BetterSqlite3.Statement {
    this.count++;
    let cached = this.statements.get(sql);
    if (!cached) {
      const statement = this.sqlite.prepare(sql);
      cached = { statement, writes: statement.readonly ? [] : this.versions.filter((v) => v.isWrittenBy(sql)) };
      this.statements.set(sql, cached);
    }
    for (const version of cached.writes) version.changed();
    return cached.statement;
  }

  /**
   * PRAGMA data_version (commits by other connections), or null inside a transaction (see
   * table-version.ts). The pragma runs only when the WAL index's header says a connection may
   * have committed since it last ran (wal-index-header.ts).
   */
  readDataVersion(): number | null {
    if (this.sqlite.inTransaction) return null;
    if (this.walIndex?.unchanged()) return this.lastDataVersion;
    try {
      this.lastDataVersion = this.dataVersion.get() as number;
    } catch (err) {
      this.walIndex?.forget();
      throw err;
    }
    return this.lastDataVersion;
  }

  tableVersion(tables: readonly string[]): TableVersion {
    const version = new SqliteTableVersion(tables);
    this.versions.push(version);
    // Statements cached before this version existed are classified again.
    for (const [sql, cached] of this.statements.entries())
      if (!cached.statement.readonly && version.isWrittenBy(sql)) cached.writes.push(version);
    return version;
  }
}
