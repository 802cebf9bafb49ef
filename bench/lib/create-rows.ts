// What the create rows need besides the API: the create ceiling's process
// (bench/create-ceiling-server.ts), and stores of their own to spread creates over.
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import type { ServerMode } from './options.js';
import {
  appRootOf,
  appServerEnv,
  freePort,
  REPORT_FLAGS,
  ROOT,
  startProcess,
  type RunningServer,
} from './processes.js';
import { benchAllowances, issueBenchKey, type BenchDatabase } from './seed.js';

/** Stores the spread create row sends to, one key each. */
export const CREATE_STORES = 16;

/**
 * The create ceiling on the run's database, loading src/db from the same code the API runs
 * (the built output, the source, or --app's build).
 */
export async function startCreateCeilingServer(options: {
  mode: ServerMode;
  appDir: string | null;
  databaseUrl: string;
  mediaDir: string;
}): Promise<RunningServer> {
  const port = await freePort();
  const env = appServerEnv(port, options.databaseUrl, options.mediaDir, appRootOf(options.mode, options.appDir));
  const entry = join(ROOT, 'bench', 'create-ceiling-server.ts');
  return startProcess('create-ceiling', [...REPORT_FLAGS, '--import', 'tsx', entry], env, port, '/');
}

/**
 * `count` stores with one key each, with the same allowances as the seeded store (far above what
 * a run uses), so the spread create row measures the work, not a refusal. Returns the keys.
 */
export async function seedCreateStores(db: BenchDatabase, count = CREATE_STORES): Promise<string[]> {
  const config = {
    ...loadConfig({ DATABASE_URL: db.database.url, LOG_LEVEL: 'warn', MEDIA_DIR: join(db.workDir, 'media') }),
    database: db.database,
  };
  const ctx = await createContext(config);
  try {
    const keys: string[] = [];
    for (let n = 1; n <= count; n++) {
      const handle = `bench-create-${n}`;
      const created = await ctx.stores.create({ handle, name: `Bench create store ${n}` });
      await benchAllowances(ctx, handle);
      keys.push(await issueBenchKey(ctx, created.id));
    }
    return keys;
  } finally {
    await ctx.close();
  }
}
