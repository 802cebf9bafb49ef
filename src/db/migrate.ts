import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { initialMigration } from './migrations/0001-initial.js';
import { housekeepingMigration } from './migrations/0002-housekeeping.js';
import { webhooksMigration } from './migrations/0003-webhooks.js';
import { cacheVersionsMigration } from './migrations/0005-cache-versions.js';
import { cacheVersionsChangedMigration } from './migrations/0006-cache-versions-changed.js';
import { abortFunctionMigration } from './migrations/0007-abort-function.js';
import { webhookRetentionMigration } from './migrations/0008-webhook-retention.js';
import { postSearchMigration } from './migrations/0009-post-search.js';
import { storeIsolationMigration } from './migrations/0011-store-isolation.js';
import type { DatabaseHandle, Engine } from './database.js';

/** One ordered set of migrations for both engines; names sort in the order they apply. */
function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(engine),
    '0002-housekeeping': housekeepingMigration(),
    '0003-webhooks': webhooksMigration(engine),
    '0005-cache-versions': cacheVersionsMigration(engine),
    '0006-cache-versions-changed': cacheVersionsChangedMigration(engine),
    '0007-abort-function': abortFunctionMigration(engine),
    '0008-webhook-retention': webhookRetentionMigration(),
    '0009-post-search': postSearchMigration(engine),
    '0011-store-isolation': storeIsolationMigration(engine),
  };
}

class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrationsFor(this.engine);
  }
}

export interface MigrationOutcome {
  applied: string[];
}

/** Brings the schema up to date. Safe to run from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(handle: DatabaseHandle): Promise<MigrationOutcome> {
  const migrator = new Migrator({ db: handle.db, provider: new InCodeMigrationProvider(handle.engine) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** Names of the migrations this code has that the database has not run (none: the schema is current). */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({ db: handle.db, provider: new InCodeMigrationProvider(handle.engine) });
  const migrations = await migrator.getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
