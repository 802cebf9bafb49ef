import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { initialMigration } from './migrations/0001-initial.js';
import { housekeepingMigration } from './migrations/0002-housekeeping.js';
import { webhooksMigration } from './migrations/0003-webhooks.js';
import { cacheVersionsMigration } from './migrations/0005-cache-versions.js';
import { cacheVersionsChangedMigration } from './migrations/0006-cache-versions-changed.js';
import { abortFunctionMigration } from './migrations/0007-abort-function.js';
import { webhookRetentionMigration } from './migrations/0008-webhook-retention.js';
import { postSearchMigration } from './migrations/0009-post-search.js';
import { cacheVersionsStampedMigration } from './migrations/0010-cache-versions-stamped.js';
import { storeIsolationMigration } from './migrations/0011-store-isolation.js';
import { eventFeedMigration } from './migrations/0012-event-feed.js';
import { storeSearchKeysMigration } from './migrations/0013-store-search-keys.js';
import { plainSearchTextMigration } from './migrations/0014-plain-search-text.js';
import { dropUnreadTrigramIndexMigration } from './migrations/0015-drop-unread-trigram-index.js';
import { imageListingMigration } from './migrations/0016-image-listing.js';
import { linearSearchKeysMigration } from './migrations/0017-linear-search-keys.js';
import { sampleEventsMigration } from './migrations/0018-sample-events.js';
import { allowedOriginsMigration } from './migrations/0019-allowed-origins.js';
import { searchKeysFromWriterMigration } from './migrations/0020-search-keys-from-writer.js';
import type { DatabaseHandle, Engine } from './database.js';

/**
 * A migration of this release. `expandOnly`: it only adds (tables, columns, indexes, functions)
 * and never drops, renames or changes what the previous release reads or writes, so the
 * previous release still runs on the schema it leaves (docs/deployment.md, rollback). The mark
 * is recorded in the database, where a previous release that does not know the migration reads it.
 */
export interface ReleaseMigration {
  name: string;
  migration: Migration;
  expandOnly: boolean;
}

/** One ordered set of migrations for both engines; names sort in the order they apply. */
export function releaseMigrations(engine: Engine): ReleaseMigration[] {
  const expand = (name: string, migration: Migration): ReleaseMigration => ({ name, migration, expandOnly: true });
  return [
    expand('0001-initial', initialMigration(engine)),
    expand('0002-housekeeping', housekeepingMigration()),
    expand('0003-webhooks', webhooksMigration(engine)),
    expand('0005-cache-versions', cacheVersionsMigration(engine)),
    expand('0006-cache-versions-changed', cacheVersionsChangedMigration(engine)),
    expand('0007-abort-function', abortFunctionMigration(engine)),
    expand('0008-webhook-retention', webhookRetentionMigration()),
    expand('0009-post-search', postSearchMigration(engine)),
    // Replaces the version trigger's function; the previous release reads versions only as growing numbers.
    expand('0010-cache-versions-stamped', cacheVersionsStampedMigration(engine)),
    expand('0011-store-isolation', storeIsolationMigration(engine)),
    expand('0012-event-feed', eventFeedMigration(engine)),
    expand('0013-store-search-keys', storeSearchKeysMigration(engine)),
    // SQLite: the same table name and columns, no longer FTS5; the previous release uses it only by rowid.
    expand('0014-plain-search-text', plainSearchTextMigration(engine)),
    // PostgreSQL: an index only the release before 0013 read.
    expand('0015-drop-unread-trigram-index', dropUnreadTrigramIndexMigration(engine)),
    expand('0016-image-listing', imageListingMigration()),
    // PostgreSQL: the same keys from the same function, computed in linear time.
    expand('0017-linear-search-keys', linearSearchKeysMigration(engine)),
    // A column the previous release never writes; its rows are numbered as before.
    expand('0018-sample-events', sampleEventsMigration(engine)),
    // A nullable column the previous release never reads.
    expand('0019-allowed-origins', allowedOriginsMigration()),
    // PostgreSQL: the keys column no longer generated; a trigger computes it when the writer gives none, as the previous release does.
    expand('0020-search-keys-from-writer', searchKeysFromWriterMigration(engine)),
  ];
}

/** Kysely's record of the migrations run, and ours of which of them the previous release survives. */
const MIGRATION_TABLE = 'kysely_migration';
const MARKS_TABLE = 'blog_migration_marks';

/** The database has run migrations this release does not know, and one of them it cannot run with. */
export class SchemaTooNewError extends Error {
  constructor(readonly migrations: string[]) {
    super(
      `the database has run migrations this release does not know and that are not marked compatible with the release before them: ${migrations.join(', ')}; ` +
        'run a release that has them, or restore the database from before them (docs/deployment.md, rollback)',
    );
    this.name = 'SchemaTooNewError';
  }
}

/**
 * The migrations the database has run that `known` does not have: those marked expand-only by
 * the release that ran them, and the others (which this release must not run on).
 */
async function unknownMigrations(
  handle: DatabaseHandle,
  known: string[],
): Promise<{ compatible: string[]; incompatible: string[] }> {
  // Kysely leaves its own tables out of the listing unless asked.
  const tables = new Set(
    (await handle.db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name),
  );
  if (!tables.has(MIGRATION_TABLE)) return { compatible: [], incompatible: [] };
  const db = handle.db as unknown as Kysely<MarksSchema>;
  const executed = (await db.selectFrom(MIGRATION_TABLE).select('name').execute()).map((r) => r.name);
  const unknown = executed.filter((name) => !known.includes(name)).sort();
  if (unknown.length === 0 || !tables.has(MARKS_TABLE)) return { compatible: [], incompatible: unknown };
  const marked = await db
    .selectFrom(MARKS_TABLE)
    .select(['name', 'expand_only'])
    .where('name', 'in', unknown)
    .execute();
  const compatible = new Set(marked.filter((m) => Number(m.expand_only) === 1).map((m) => m.name));
  return {
    compatible: unknown.filter((n) => compatible.has(n)),
    incompatible: unknown.filter((n) => !compatible.has(n)),
  };
}

interface MarksSchema {
  kysely_migration: { name: string };
  blog_migration_marks: { name: string; expand_only: number };
}

/**
 * The migrations as Kysely runs them: this release's, and a step that does nothing in place of
 * each newer compatible one the database has run (Kysely refuses a database whose record names
 * a migration it is not given). Refuses a database with a newer migration not marked compatible.
 */
async function providerFor(handle: DatabaseHandle, migrations: ReleaseMigration[]): Promise<MigrationProvider> {
  const { compatible, incompatible } = await unknownMigrations(
    handle,
    migrations.map((m) => m.name),
  );
  if (incompatible.length > 0) throw new SchemaTooNewError(incompatible);
  const all: Record<string, Migration> = Object.fromEntries(migrations.map((m) => [m.name, m.migration]));
  for (const name of compatible) all[name] = { up: async () => undefined };
  return { getMigrations: async () => all };
}

/** Records which of the migrations run are expand-only, for a previous release to read. */
async function recordMarks(handle: DatabaseHandle, migrations: ReleaseMigration[]): Promise<void> {
  const db = handle.db as unknown as Kysely<MarksSchema>;
  try {
    await db.schema
      .createTable(MARKS_TABLE)
      .ifNotExists()
      .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('expand_only', 'integer', (c) => c.notNull())
      .execute();
  } catch (err) {
    // Another process created it at the same moment (PostgreSQL's IF NOT EXISTS is not atomic).
    const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
    if (!tables.includes(MARKS_TABLE)) throw err;
  }
  const rows = migrations.map((m) => ({ name: m.name, expand_only: m.expandOnly ? 1 : 0 }));
  await db
    .insertInto(MARKS_TABLE)
    .values(rows)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export interface MigrationOutcome {
  applied: string[];
}

/**
 * Brings the schema up to date. Safe to run from several processes at once (Kysely takes a lock).
 * Newer migrations the database has run are accepted when their release marked them expand-only.
 */
export async function migrateToLatest(
  handle: DatabaseHandle,
  migrations: ReleaseMigration[] = releaseMigrations(handle.engine),
): Promise<MigrationOutcome> {
  const migrator = new Migrator({ db: handle.db, provider: await providerFor(handle, migrations) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  await recordMarks(handle, migrations);
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/**
 * Names of the migrations this code has that the database has not run (none: the schema is
 * current). Refuses, like migrateToLatest, a newer migration not marked compatible.
 */
export async function pendingMigrations(
  handle: DatabaseHandle,
  migrations: ReleaseMigration[] = releaseMigrations(handle.engine),
): Promise<string[]> {
  const migrator = new Migrator({ db: handle.db, provider: await providerFor(handle, migrations) });
  const known = new Set(migrations.map((m) => m.name));
  return (await migrator.getMigrations())
    .filter((m) => m.executedAt === undefined && known.has(m.name))
    .map((m) => m.name);
}
