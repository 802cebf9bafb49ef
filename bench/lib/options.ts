// Command line of `npm run bench`: every figure the run uses, with defaults matching the targets.
import { parseArgs } from 'node:util';

export type EngineName = 'sqlite' | 'postgres';
export type ServerMode = 'dist' | 'source';

export interface BenchOptions {
  engine: EngineName;
  /** The engines measured, one after the other (`--engine both`: SQLite, then PostgreSQL); `engine` is the first. */
  engines: EngineName[];
  /** Seconds per endpoint. */
  duration: number;
  /** Seconds of unreported warm-up per read endpoint before the first repetition. */
  warmup: number;
  connections: number;
  uploadConnections: number;
  posts: number;
  /** Posts of the search rows' store (bulk-loaded; short English and Chinese posts). */
  searchPosts: number;
  /** Connections of the search rows (a search costs far more than a read: latency, not queueing). */
  searchConnections: number;
  bodyKb: number;
  repeats: number;
  server: ServerMode;
  /** Another build's folder holding main.js (e.g. to compare two builds); null: this project's. */
  app: string | null;
  build: boolean;
  /** Also measure create under the other durability setting (FULL / synchronous_commit=off). */
  durability: boolean;
  /** Endpoint names to run (empty: all). */
  only: string[];
  postgresUrl: string;
  /** READ_CACHE_MB of the API server: room for the seeded posts, so a walk over them all is kept. */
  readCacheMb: number;
  /** Directory for `node --cpu-prof` output of the API server, or null. */
  cpuProf: string | null;
  /** Write the results as JSON here too. */
  json: string | null;
  smoke: boolean;
  /** Only compare the HTML filter candidates in this process (no servers, no database). */
  filters: boolean;
  /** LOG_LEVEL of the API for the main rows (the production default, info). */
  logLevel: string;
  /** REDIS_URL of the API servers, or null (the default on PostgreSQL: the local Redis, when it answers). */
  redisUrl: string | null;
}

export const USAGE = `usage: npm run bench -- [options]
  --engine sqlite|postgres|both
                             database engine (default sqlite: a temporary file); both: SQLite, then
                             PostgreSQL, each with its own ceilings and table
  --duration N               seconds per endpoint (default 10)
  --warmup N                 unreported warm-up seconds per read endpoint (default 2)
  --connections N            connections per endpoint (default 32)
  --upload-connections N     connections for the image upload (default 4)
  --posts N                  posts seeded before the run (default 10000)
  --search-posts N           posts of the store the search rows query (default 100000; smoke 300)
  --search-connections N     connections for the search rows (default 4)
  --body-kb N                body size of the seeded posts in KB (default 5; the create rows send the
                             corpus of bench/corpus/, 5.0–5.5 KB a body)
  --repeats N                repetitions of the read set (default 3)
  --server dist|source       run the built output (default; builds first) or src/ through tsx
  --app DIR                  run the built output in DIR (a folder with main.js) instead; no build
  --no-build                 do not run "npm run build" first
  --no-durability            skip the create run under the other durability setting
  --only a,b                 only these rows: bare,fastify,one-query,get,list,walk,me,create,create-rewritten,publish,pages,
                             create-stores (creates spread over 16 stores), create-ceiling (node:http + one
                             committed INSERT; runs with any create row), upload,variant,uncached,quiet,
                             two (PostgreSQL: two API processes),search;
                             neighbours (alone: store A at its limits beside store B, its uploads of
                             the costliest images beside B's file reads, and the work per request at
                             the largest bodies; NEIGHBOURS=images or =json runs one part; see
                             docs/performance.md)
  --read-cache-mb N          the API's READ_CACHE_MB (default 256: holds the 10,000 seeded posts)
  --postgres-url URL         admin URL (default $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --cpu-prof DIR             run the API server with node --cpu-prof, profiles written to DIR
  --json FILE                also write the results as JSON
  --log-level L              the API's LOG_LEVEL for the main rows (default info, as in production);
                             the "quiet" rows run again with warn
  --redis URL|none           the API's REDIS_URL (default on PostgreSQL: redis://127.0.0.1:6379 when it
                             answers; on SQLite: none)
  --smoke                    a few seconds: tiny seed, 1-second runs, a few rows, source server
  --filters                  only compare the HTML filter candidates side by side (no servers; --repeats rounds,
                             at least 3; with --smoke one short round)`;

export const ENDPOINTS = [
  'bare',
  'fastify',
  'one-query',
  'get',
  'list',
  'walk',
  'me',
  'create',
  'create-rewritten',
  'create-stores',
  'create-ceiling',
  'publish',
  'upload',
  'variant',
  'pages',
  'uncached',
  'quiet',
  'two',
  'search',
  'neighbours',
] as const;

export class UsageError extends Error {}

/** The PostgreSQL admin URL the benchmark creates its databases with, unless told another. */
export const defaultPostgresUrl = () => process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function positive(name: string, raw: string | undefined, fallback: number, allowZero = false): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0))
    throw new UsageError(`--${name} takes a positive number (got "${raw}")`);
  return n;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      engine: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'upload-connections': { type: 'string' },
      posts: { type: 'string' },
      'search-posts': { type: 'string' },
      'search-connections': { type: 'string' },
      'body-kb': { type: 'string' },
      repeats: { type: 'string' },
      server: { type: 'string' },
      app: { type: 'string' },
      'no-build': { type: 'boolean' },
      'no-durability': { type: 'boolean' },
      only: { type: 'string' },
      'postgres-url': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'read-cache-mb': { type: 'string' },
      json: { type: 'string' },
      smoke: { type: 'boolean' },
      filters: { type: 'boolean' },
      'log-level': { type: 'string' },
      redis: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) throw new UsageError('');
  const smoke = values.smoke === true;
  const engineArg = values.engine ?? 'sqlite';
  if (engineArg !== 'sqlite' && engineArg !== 'postgres' && engineArg !== 'both')
    throw new UsageError('--engine takes sqlite, postgres or both');
  const engines: EngineName[] = engineArg === 'both' ? ['sqlite', 'postgres'] : [engineArg];
  const engine = engines[0];
  const server = (values.server ?? (smoke ? 'source' : 'dist')) as ServerMode;
  if (server !== 'dist' && server !== 'source') throw new UsageError('--server takes dist or source');
  const only = (values.only ?? (smoke ? 'bare,get,create,create-stores,search,variant' : ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only.filter((name) => !(ENDPOINTS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new UsageError(`--only: unknown ${unknown.join(', ')} (known: ${ENDPOINTS.join(', ')})`);
  return {
    engine,
    engines,
    duration: positive('duration', values.duration, smoke ? 1 : 10),
    warmup: positive('warmup', values.warmup, smoke ? 0 : 2, true),
    connections: Math.round(positive('connections', values.connections, 32)),
    uploadConnections: Math.round(positive('upload-connections', values['upload-connections'], 4)),
    posts: Math.round(positive('posts', values.posts, smoke ? 100 : 10_000)),
    searchPosts: Math.round(positive('search-posts', values['search-posts'], smoke ? 300 : 100_000)),
    searchConnections: Math.round(positive('search-connections', values['search-connections'], 4)),
    bodyKb: positive('body-kb', values['body-kb'], 5),
    repeats: Math.round(positive('repeats', values.repeats, smoke ? 1 : 3)),
    server: values.app ? 'dist' : server,
    app: values.app ?? null,
    build: server === 'dist' && !values.app && values['no-build'] !== true,
    durability: !smoke && values['no-durability'] !== true,
    only,
    postgresUrl: values['postgres-url'] ?? defaultPostgresUrl(),
    readCacheMb: Math.round(positive('read-cache-mb', values['read-cache-mb'], 256, true)),
    cpuProf: values['cpu-prof'] ?? null,
    json: values.json ?? null,
    smoke,
    filters: values.filters === true,
    logLevel: values['log-level'] ?? 'info',
    // 'default' is settled by the run (whether the local Redis answers).
    redisUrl: values.redis === 'none' ? null : (values.redis ?? (engine === 'postgres' ? 'default' : null)),
  };
}

export const wants = (options: BenchOptions, name: (typeof ENDPOINTS)[number]) =>
  options.only.length === 0 || options.only.includes(name);
