// Environment → validated, typed configuration. Every problem is listed at once so an
// operator fixes them in one go (decisions: "a bad value stops the process with a clear message").
import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve, dirname } from 'node:path';

export type DatabaseConfig =
  | { engine: 'sqlite'; url: string; file: string }
  | { engine: 'postgres'; url: string };

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  publicBaseUrl: string;
  mediaDir: string;
  redisUrl: string | null;
  logLevel: string;
  /** Hard ceiling on any JSON request body, before the per-store limit applies. */
  maxJsonBodyBytes: number;
  /** Memory for posts and list pages cached between reads (src/cache); 0 turns it off. */
  readCacheBytes: number;
  /** Worker threads that filter post bodies; 0 filters on the event loop. */
  htmlFilterThreads: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function parseDatabaseUrl(raw: string): DatabaseConfig | string {
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) return 'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/blog.db';
    return { engine: 'sqlite', url: raw, file: file === ':memory:' ? file : resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      return 'DATABASE_URL is not a valid postgres:// URL';
    }
    return { engine: 'postgres', url: raw };
  }
  return 'DATABASE_URL must start with sqlite: or postgres://';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];

  const port = Number(env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be an integer 0–65535 (got "${env.PORT}")`);

  const host = env.HOST ?? '127.0.0.1';
  if (!host.trim()) problems.push('HOST must not be empty');

  const database = parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/blog.db');
  if (typeof database === 'string') problems.push(database);

  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  try {
    const u = new URL(publicBaseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push('PUBLIC_BASE_URL must be http:// or https://');
  } catch {
    problems.push(`PUBLIC_BASE_URL is not a valid URL (got "${env.PUBLIC_BASE_URL}")`);
  }

  const defaultMediaDir =
    typeof database !== 'string' && database.engine === 'sqlite' && database.file !== ':memory:'
      ? join(dirname(database.file), 'media')
      : resolve('data/media');
  const mediaDir = env.MEDIA_DIR ? (isAbsolute(env.MEDIA_DIR) ? env.MEDIA_DIR : resolve(env.MEDIA_DIR)) : defaultMediaDir;

  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');

  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const maxJsonBodyBytes = Number(env.MAX_JSON_BODY_BYTES ?? 16 * 1024 * 1024);
  if (!Number.isInteger(maxJsonBodyBytes) || maxJsonBodyBytes < 1024) problems.push('MAX_JSON_BODY_BYTES must be an integer ≥ 1024');

  const readCacheMb = Number(env.READ_CACHE_MB ?? 128);
  if (!Number.isInteger(readCacheMb) || readCacheMb < 0) problems.push('READ_CACHE_MB must be an integer ≥ 0 (0 turns the read cache off)');

  // Default: one thread beside the event loop when the machine has a second core.
  const htmlFilterThreads = Number(env.HTML_FILTER_THREADS ?? (availableParallelism() > 1 ? 1 : 0));
  if (!Number.isInteger(htmlFilterThreads) || htmlFilterThreads < 0 || htmlFilterThreads > 64) problems.push('HTML_FILTER_THREADS must be an integer from 0 to 64');

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    database: database as DatabaseConfig,
    publicBaseUrl,
    mediaDir,
    redisUrl,
    logLevel,
    maxJsonBodyBytes,
    readCacheBytes: readCacheMb * 1024 * 1024,
    htmlFilterThreads,
  };
}
