// The API started exactly as src/main.ts does, but with SQLite's `synchronous` set from
// BENCH_SQLITE_SYNCHRONOUS, to measure what the durability setting costs. BENCH_APP_ROOT
// chooses the built output (dist/src) or the source (src).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';

const root = process.env.BENCH_APP_ROOT ?? join(import.meta.dirname, '..', 'dist', 'src');
// Under tsx a `.js` specifier also finds the `.ts` source.
const load = (path: string) => import(pathToFileURL(join(root, `${path}.js`)).href);

const synchronous = process.env.BENCH_SQLITE_SYNCHRONOUS ?? 'NORMAL';
if (!['OFF', 'NORMAL', 'FULL', 'EXTRA'].includes(synchronous))
  throw new Error(`BENCH_SQLITE_SYNCHRONOUS: ${synchronous}`);

// Typed as the source modules; the built ones have the same exports.
const { loadConfig } = (await load('config/config')) as typeof import('../src/config/config.js');
const { openDatabase } = (await load('db/database')) as typeof import('../src/db/database.js');
const { createContext } = (await load('context')) as typeof import('../src/context.js');
const { buildApp } = (await load('app')) as typeof import('../src/app.js');

const config = loadConfig();
const handle = openDatabase(config.database);
if (handle.engine === 'sqlite') await sql.raw(`PRAGMA synchronous = ${synchronous}`).execute(handle.db);
const ctx = await createContext(config, { database: handle });
const app = await buildApp(ctx);
await app.listen({ port: config.port, host: config.host });
const shutdown = async () => {
  await app.close();
  await ctx.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
