// Each API/database test file runs once per engine: SQLite always; PostgreSQL when reachable.
// Without PostgreSQL the suite is skipped with a clear message, unless REQUIRE_POSTGRES=1 (CI),
// where an unreachable server fails the run instead of hiding behind a skip.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config/config.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';

export interface EngineTarget {
  name: 'sqlite' | 'postgres';
  /** Why this engine is skipped here, or undefined when it runs. */
  skip?: string;
  /** A brand-new, empty database for one test file (or one test). */
  create(): Promise<{ database: DatabaseConfig; drop(): Promise<void> }>;
}

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
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
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'blogapi-test-'));
    const file = join(dir, 'blog.db');
    return { database: { engine: 'sqlite', url: `sqlite:${file}`, file }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

function postgresTarget(skip: string | undefined): EngineTarget {
  return {
    name: 'postgres',
    skip,
    async create() {
      const name = `blogapi_test_${randomLowerAlnum(10)}`;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
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
  let skip = await postgresReachable();
  if (skip && process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${skip}`);
  if (skip) console.log(`# skipping PostgreSQL suites: ${skip}`);
  cached = [sqliteTarget, postgresTarget(skip)];
  return cached;
}
