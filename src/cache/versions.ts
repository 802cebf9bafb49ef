// Where a request's cache versions come from, per engine. One story for both: a write to a
// topic's tables gives the topic a new version, visible to every process once the write is
// committed, and a request reads the versions before it reads anything it may cache.
import type { DatabaseHandle, Db } from '../db/database.js';
import { queryTemplate } from '../db/query-template.js';
import type { TableVersion } from '../db/table-version.js';
import type { CacheVersions } from './cache.js';
import { TOPICS, VERSION_COLUMNS, versionColumn, type VersionColumn } from './topics.js';

export interface VersionSource {
  /**
   * true: versions cost nothing to read (SQLite: in memory, read on every request).
   * false: they are a row in the shared database (PostgreSQL), read in the request's one
   * authentication query, and they are per store.
   */
  readonly inProcess: boolean;
  read(storeId: number): CacheVersions | Promise<CacheVersions>;
}

/**
 * SQLite: this process sees its own writes as they are prepared, and other processes' commits
 * through PRAGMA data_version (see src/db/table-version.ts). Versions are per topic,
 * for all stores at once.
 */
class InProcessVersions implements VersionSource {
  readonly inProcess = true;
  private readonly tables: ReadonlyArray<readonly [keyof CacheVersions, TableVersion]>;

  constructor(private readonly handle: DatabaseHandle) {
    this.tables = TOPICS.map((topic) => [topic.name, handle.tableVersion(topic.tables)!] as const);
  }

  /** The versions last returned, handed out again while none has moved: no object a read. */
  private last: Readonly<CacheVersions> | null = null;
  private readonly now: Array<number | null> = [];

  read(): CacheVersions {
    // One PRAGMA data_version for all the topics (see src/db/table-version.ts).
    const dataVersion = this.handle.dataVersion();
    const { tables, now, last } = this;
    let same = last !== null;
    for (let i = 0; i < tables.length; i++) {
      const [topic, table] = tables[i]!;
      now[i] = table.at(dataVersion);
      if (same && now[i] !== last![topic]) same = false;
    }
    if (same) return last!;
    const versions = {} as CacheVersions;
    for (let i = 0; i < tables.length; i++) versions[tables[i]![0]] = now[i] ?? null;
    this.last = Object.freeze(versions);
    return versions;
  }
}

const versionsOfStore = queryTemplate((db, $: { storeId: number }) =>
  db.selectFrom('cache_versions').select(VERSION_COLUMNS).where('store_id', '=', $.storeId),
);

const TOPIC_COLUMNS = TOPICS.map((topic) => [topic.name, versionColumn(topic.name)] as const);

/** The columns of cache_versions as versions (a store without a row has never changed: 0). */
export function versionsFromRow(row: { readonly [C in VersionColumn]: number | null } | undefined): CacheVersions {
  const versions = {} as CacheVersions;
  for (const [topic, column] of TOPIC_COLUMNS) versions[topic] = row?.[column] ?? 0;
  return versions;
}

/**
 * PostgreSQL: the cache_versions row of the store, kept by triggers in the writing transaction
 * (migration 0005-cache-versions), so a version read after a commit returns — by the CLI or any instance —
 * is that commit's or later. Reading it is the one query of a request whose values are cached.
 */
class DatabaseVersions implements VersionSource {
  readonly inProcess = false;

  constructor(private readonly db: Db) {}

  async read(storeId: number): Promise<CacheVersions> {
    const [row] = await versionsOfStore(this.db, { storeId });
    return versionsFromRow(row);
  }
}

export function versionSource(handle: DatabaseHandle): VersionSource {
  return handle.engine === 'sqlite' ? new InProcessVersions(handle) : new DatabaseVersions(handle.db);
}
