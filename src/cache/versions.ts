// Where a request's cache versions come from, per engine. One story for both: a write to a
// topic's tables gives the topic a new version, visible to every process once the write is
// committed, and a request reads the versions before it reads anything it may cache.
import type { DatabaseHandle, Db } from '../db/database.js';
import { queryTemplate } from '../db/query-template.js';
import type { CacheVersions, Topic } from './cache.js';

/** The tables each topic's values are read from (SQLite; PostgreSQL's triggers say the same). */
export const TOPIC_TABLES: Record<Topic, readonly string[]> = {
  keys: ['api_keys', 'stores'],
  content: ['posts', 'post_categories', 'categories', 'images', 'stores'],
  usage: ['daily_usage', 'stores'],
};

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
  private readonly keys;
  private readonly content;
  private readonly usage;

  constructor(private readonly handle: DatabaseHandle) {
    this.keys = handle.tableVersion(TOPIC_TABLES.keys)!;
    this.content = handle.tableVersion(TOPIC_TABLES.content)!;
    this.usage = handle.tableVersion(TOPIC_TABLES.usage)!;
  }

  read(): CacheVersions {
    const dataVersion = this.handle.dataVersion();
    return { keys: this.keys.at(dataVersion), content: this.content.at(dataVersion), usage: this.usage.at(dataVersion) };
  }
}

const versionsOfStore = queryTemplate((db, $: { storeId: number }) =>
  db.selectFrom('cache_versions').select(['keys_version', 'content_version', 'usage_version']).where('store_id', '=', $.storeId),
);

/** The columns of cache_versions as versions (a store without a row has never changed: 0). */
export function versionsFromRow(row: { keys_version: number | null; content_version: number | null; usage_version: number | null } | undefined): CacheVersions {
  return { keys: row?.keys_version ?? 0, content: row?.content_version ?? 0, usage: row?.usage_version ?? 0 };
}

/**
 * PostgreSQL: the cache_versions row of the store, kept by triggers in the writing transaction
 * (migration 0002), so a version read after a commit returns — by the CLI or any instance —
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
