// Change watching on SQLite: a version of some tables that this process reads without a query,
// for the caches (src/cache). PostgreSQL keeps its versions in the cache_versions table instead.

/**
 * at() returns a greater number after any change to the tables may have committed, or null
 * while it cannot tell (then nothing may be served from or put in a cache). Its argument is the
 * connection's PRAGMA data_version, read once per request for all the versions (dataVersion()
 * on the database handle): each read is a statement, and three of them were a tenth of a cached
 * read's cost.
 */
export interface TableVersion {
  at(dataVersion: number | null): number | null;
}

/**
 * Changes come from two places: this connection's own writes (seen as the statements are
 * prepared, so before they run; see sqlite-statements.ts) and commits by any other connection
 * or process (the CLI, another instance), which SQLite reports through PRAGMA data_version. Any
 * statement whose text names one of the tables counts as a change to it, including a write
 * that later rolls back. While a transaction is open on the connection (another request's,
 * between its awaits), data_version shows that transaction's snapshot, not the latest commits,
 * so the version is null then: nothing is served or cached, and reads wait for the transaction
 * as uncached.
 */
export class SqliteTableVersion implements TableVersion {
  private readonly pattern: RegExp;
  private count = 0;
  private lastDataVersion: number | null | undefined;

  constructor(tables: readonly string[]) {
    this.pattern = new RegExp(`\\b(${tables.join('|')})\\b`, 'i');
  }

  isWrittenBy(sql: string): boolean {
    return this.pattern.test(sql);
  }

  changed(): void {
    this.count++;
  }

  /** `dataVersion`: PRAGMA data_version now; null while the connection is inside a transaction. */
  at(dataVersion: number | null): number | null {
    if (dataVersion === null) return null;
    if (dataVersion !== this.lastDataVersion) {
      this.lastDataVersion = dataVersion;
      this.count++;
    }
    return this.count;
  }
}
