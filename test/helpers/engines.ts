// Each API/database test file runs once per engine: SQLite always; PostgreSQL when reachable.
// Without PostgreSQL the suite is skipped with a clear message, unless REQUIRE_POSTGRES=1 (CI),
// where an unreachable server fails the run instead of hiding behind a skip.
//
// Every database a test gets is already migrated: it is a copy of a template migrated once per
// set of migrations (see database-template.ts), so the app's start-up migration finds nothing to do.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config/config.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { POSTGRES_ADMIN_URL, postgresTemplate, sqliteTemplate } from './database-template.js';

export { POSTGRES_ADMIN_URL } from './database-template.js';

export interface EngineTarget {
  name: 'sqlite' | 'postgres';
  /** Why this engine is skipped here, or undefined when it runs. */
  skip?: string;
  /** A brand-new database for one test file (or one test), with every migration already run. */
  /** `empty`: a database no migration has run on (for tests of the migrations themselves). */
  create(options?: { empty?: boolean }): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }>;
}

async function postgresReachable(): Promise<string | undefined> {
  // A refused connection fails at once; the time limit is for a host that never answers, and is
  // generous because a busy two-core machine can take seconds to accept a connection.
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (err) {
    return `PostgreSQL not reachable at ${POSTGRES_ADMIN_URL.replace(/\/\/[^@]*@/, '//')} (${(err as Error).message}); set TEST_POSTGRES_URL to run these tests`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const sqliteTarget: EngineTarget = {
  name: 'sqlite',
  async create(options = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'blogapi-test-'));
    const file = join(dir, 'blog.db');
    if (!options.empty) copyFileSync(await sqliteTemplate(), file);
    return {
      database: { engine: 'sqlite', url: `sqlite:${file}`, file },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

function postgresTarget(skip: string | undefined): EngineTarget {
  return {
    name: 'postgres',
    skip,
    async create(options = {}) {
      const template = options.empty ? 'template0' : await postgresTemplate();
      const name = `blogapi_test_${randomLowerAlnum(10)}`;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      } finally {
        await admin.end();
      }
      const url = new URL(POSTGRES_ADMIN_URL);
      url.pathname = `/${name}`;
      return {
        database: { engine: 'postgres', url: url.toString() },
        async drop() {
          const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        },
      };
    },
  };
}

let cached: EngineTarget[] | undefined;

export async function engineTargets(): Promise<EngineTarget[]> {
  if (cached) return cached;
  const skip = await postgresReachable();
  if (skip && process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${skip}`);
  if (skip) console.log(`# skipping PostgreSQL suites: ${skip}`);
  cached = [sqliteTarget, postgresTarget(skip)];
  return cached;
}

const targets = await engineTargets();

/** The engines in the order their suites run: SQLite, then PostgreSQL. */
export const sqliteEngine: EngineTarget = targets[0];
export const postgresEngine: EngineTarget = targets[1];

export interface EachEngineOptions {
  /** Another reason to skip (a service the suite needs), used when the engine itself runs. */
  skip?: string;
}

/**
 * One suite per engine, named `<name> [sqlite]` and `<name> [postgres]`; the PostgreSQL one is
 * skipped (with the reason) when PostgreSQL is not reachable.
 */
export function describeEachEngine(
  name: string,
  fn: (target: EngineTarget) => void,
  options: EachEngineOptions = {},
): void {
  for (const target of targets) {
    describe(`${name} [${target.name}]`, { skip: target.skip ?? options.skip }, () => fn(target));
  }
}

/** A suite that only makes sense on PostgreSQL (connections, settings, several processes on one database): `<name> [postgres]`. */
export function describeOnPostgres(
  name: string,
  fn: (target: EngineTarget) => void,
  options: EachEngineOptions = {},
): void {
  describe(`${name} [postgres]`, { skip: postgresEngine.skip ?? options.skip }, () => fn(postgresEngine));
}
