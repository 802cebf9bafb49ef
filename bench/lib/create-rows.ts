// What the create rows need besides the API: the create ceiling's process
// (bench/create-ceiling-server.ts), and stores of their own to spread creates over.
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { SCOPES } from '../../src/modules/keys/index.js';
import type { ServerMode } from './options.js';
import { freePort, REPORT_FLAGS, ROOT, serverEnv, startProcess, type RunningServer } from './processes.js';
import type { BenchDatabase } from './seed.js';

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
  const appRoot = options.appDir ? resolve(options.appDir) : join(ROOT, options.mode === 'dist' ? 'dist' : '', 'src');
  const env = serverEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    MEDIA_DIR: options.mediaDir,
    BENCH_APP_ROOT: appRoot,
  });
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
      await ctx.stores.update(handle, {
        posts_per_day: 100_000_000,
        images_per_day: 10_000_000,
        image_max_bytes: 60 * 1024 * 1024,
      });
      const issued = await ctx.keys.issue({
        storeId: created.id,
        application: 'bench',
        scopes: [...SCOPES],
        readPerMinute: 10_000_000,
        writePerMinute: 10_000_000,
        concurrency: 1000,
      });
      keys.push(issued.key);
    }
    return keys;
  } finally {
    await ctx.close();
  }
}
