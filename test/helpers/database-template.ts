// Migrated template databases: migrating takes longer than copying, and every test database
// starts from the same schema, so the migrations run once per set of migrations and each test
// database is a copy (PostgreSQL: CREATE DATABASE ... TEMPLATE; SQLite: a file copy).
//
// The template's name carries a hash of the migration sources: changed migrations get a new
// template, and a template once built is reused by later runs. Test files run in parallel
// processes, so building is guarded: on PostgreSQL by an advisory lock, on SQLite by building
// under a private name and renaming (atomic) into place.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The sources that decide the schema: the migrations and the list that orders them. */
const MIGRATION_SOURCES = [
  fileURLToPath(new URL('../../src/db/migrate.ts', import.meta.url)),
  fileURLToPath(new URL('../../src/db/migrations/', import.meta.url)),
];

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const source of MIGRATION_SOURCES) {
    if (!existsSync(source))
      throw new Error(
        `test database template: ${source} not found (did the migrations move? update MIGRATION_SOURCES)`,
      );
    const files = source.endsWith('/')
      ? readdirSync(source)
          .sort()
          .map((name) => join(source, name))
      : [source];
    for (const file of files) hash.update(file.slice(file.lastIndexOf('/src/'))).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}

/** Not a time rule: waits for the server to let go of a connection that was just closed. */
async function retryWhileInUse<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Runs `build` once per process; a failed build is tried again by the next caller. */
function once<T>(build: () => Promise<T>): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () =>
    (built ??= build().catch((err) => {
      built = undefined;
      throw err;
    }));
}

/** The name of the migrated PostgreSQL template, built by the first process that needs it. */
export const postgresTemplate = once(buildPostgresTemplate);

async function buildPostgresTemplate(): Promise<string> {
  const name = `blogapi_template_${migrationsHash()}`;
  const building = `${name}_building`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const exists = async () =>
      (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    // The template appears under its name only once complete, so its presence is enough.
    if (await exists()) return name;
    // One builder at a time across the parallel test processes; the others wait here, then find it.
    await admin.query("SELECT pg_advisory_lock(hashtext('blogapi test database template'))");
    if (await exists()) return name;
    // A builder that died half-way leaves its work under the building name.
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${building}`;
    const handle = openDatabase({ engine: 'postgres', url: url.toString() }, { poolSize: 1 });
    try {
      await migrateToLatest(handle);
    } finally {
      await handle.close();
    }
    // Nobody may connect to a template: CREATE DATABASE ... TEMPLATE fails while anyone is.
    await admin.query(`ALTER DATABASE ${building} WITH ALLOW_CONNECTIONS false`);
    await retryWhileInUse(() => admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
    return name;
  } finally {
    // Ending the session releases the advisory lock.
    await admin.end();
  }
}

/** The path of the migrated SQLite template file, built by the first process that needs it. */
export const sqliteTemplate = once(buildSqliteTemplate);

async function buildSqliteTemplate(): Promise<string> {
  const file = join(tmpdir(), `blogapi-template-${migrationsHash()}.db`);
  if (existsSync(file)) return file;
  const building = `${file}.${process.pid}-${randomLowerAlnum(6)}`;
  const handle = openDatabase({ engine: 'sqlite', url: `sqlite:${building}`, file: building });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }
  // Closing the last connection folds the write-ahead log into the file; a log left beside it
  // would mean the file alone is not the whole database.
  if (existsSync(`${building}-wal`)) {
    rmSync(`${building}-wal`, { force: true });
    rmSync(`${building}-shm`, { force: true });
    rmSync(building, { force: true });
    throw new Error('test database template: SQLite left a write-ahead log after closing');
  }
  // Two processes building at once both rename a complete file into place; the last one stays.
  renameSync(building, file);
  return file;
}
