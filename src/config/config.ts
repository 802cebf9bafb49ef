// Environment → validated, typed configuration. Every variable is declared once, in
// env-schema.ts, and read only through it. Every problem is listed at once so an operator fixes
// them in one go (docs/operations.md: a bad value stops the process with a clear message).
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve, dirname } from 'node:path';
import { integerVariable, readEnvironment, type Environment } from './env-schema.js';
import { parseMediaSettings, type MediaSettings } from './media-settings.js';
import { parseMediaStoreConfig, type MediaStoreConfig } from './media-store-config.js';

export type { MediaSettings } from './media-settings.js';
export type { MediaStoreConfig, S3StoreConfig, ChecksumMode } from './media-store-config.js';

/** Cache-Control of public answers (src/http/public-cache.ts). */
export interface PublicCachePolicy {
  maxAgeSeconds: number;
  staleSeconds: number;
}

export type DatabaseConfig = { engine: 'sqlite'; url: string; file: string } | { engine: 'postgres'; url: string };

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  publicBaseUrl: string;
  mediaDir: string;
  /** Where images are kept: the local folder (mediaDir) or an S3-compatible bucket. */
  mediaStore: MediaStoreConfig;
  /** Upload timing and the image decode budget. */
  media: MediaSettings;
  /** Seconds between housekeeping passes (HOUSEKEEPING_INTERVAL_S). */
  housekeepingIntervalS: number;
  /** Days an event stays in the events feed (EVENT_RETENTION_DAYS). */
  eventRetentionDays: number;
  /** How long caches may keep what anyone may read: pages, feeds, sitemaps, the Content API. */
  publicCache: PublicCachePolicy;
  /** Requests a minute per client address of a key that reads published content only (CONTENT_ADDRESS_READS_PER_MINUTE). */
  contentAddressReadsPerMinute: number;
  redisUrl: string | null;
  /** REDIS_PREFIX: the start of every Redis key the service writes. */
  redisPrefix: string;
  logLevel: string;
  /** Hard ceiling on any JSON request body, before the per-store limit applies. */
  maxJsonBodyBytes: number;
  /** Memory for posts and list pages cached between reads (src/cache); 0 turns it off. */
  readCacheBytes: number;
  /** Worker threads that filter post bodies; 0 filters on the event loop. */
  htmlFilterThreads: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=1: webhooks may go to http and private addresses (development and tests only). */
  webhookAllowPrivateTargets: boolean;
  /** WEBHOOK_ALLOWED_PORTS: the ports a webhook URL may name (null: any); undefined: the default (docs/webhooks.md). */
  webhookAllowedPorts: number[] | null | undefined;
  /** Operations: health, metrics, shutdown, slow clients, database settings (docs/operations.md). */
  ops: OpsConfig;
}

export interface OpsConfig {
  /** GET /metrics is served. */
  metrics: boolean;
  /** Whose X-Forwarded-For names the client (TRUST_PROXY); false: the TCP peer is the client. */
  trustProxy: TrustProxy;
  /** When set, GET /metrics asks for `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Each readiness check gives up after this long. */
  healthCheckTimeoutMs: number;
  /** After SIGTERM, how long the process keeps serving (with /readyz failing) before it stops accepting. */
  shutdownDrainMs: number;
  /** After the drain, how long in-flight requests get to finish. */
  shutdownGraceMs: number;
  /** Request line and headers must arrive within this time. */
  headersTimeoutMs: number;
  /** A body that is not multipart must arrive whole within this time. */
  bodyTimeoutMs: number;
  /** A multipart body (an upload) must bring `uploadMinBytes` in every interval this long. */
  uploadIdleTimeoutMs: number;
  uploadMinBytes: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are refused. */
  maxConnections: number;
  /** Connections that have not yet sent one complete request, at most; more are refused. */
  maxPendingConnections: number;
  /** PostgreSQL: connections in the pool, statement timeout, connect timeout, wait for a pooled connection. */
  databasePoolMax: number;
  databaseStatementTimeoutMs: number;
  databaseConnectTimeoutMs: number;
  databasePoolWaitTimeoutMs: number;
  /** Migrations run when the server starts (false: `blog-api migrate` runs them once). */
  migrateOnStart: boolean;
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

export function loadConfig(processEnv: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = readEnvironment(processEnv);
  const problems: string[] = [];

  const port = Number(env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be an integer 0–65535 (got "${env.PORT}")`);

  const host = env.HOST ?? '127.0.0.1';
  if (!host.trim()) problems.push('HOST must not be empty');

  const database = parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/blog.db');
  if (typeof database === 'string') problems.push(database);

  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(
    /\/+$/,
    '',
  );
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
  const mediaDir = env.MEDIA_DIR
    ? isAbsolute(env.MEDIA_DIR)
      ? env.MEDIA_DIR
      : resolve(env.MEDIA_DIR)
    : defaultMediaDir;

  const mediaStore = parseMediaStoreConfig(env, problems);
  const media = parseMediaSettings(env, problems);
  const housekeepingIntervalS = Number(env.HOUSEKEEPING_INTERVAL_S?.trim() || 300);
  if (!Number.isInteger(housekeepingIntervalS) || housekeepingIntervalS < 1 || housekeepingIntervalS > 86_400) {
    problems.push(
      `HOUSEKEEPING_INTERVAL_S must be an integer number of seconds from 1 to 86400 (got "${env.HOUSEKEEPING_INTERVAL_S}")`,
    );
  }

  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');

  const redisPrefix = env.REDIS_PREFIX?.trim() || 'blogapi:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(redisPrefix))
    problems.push(`REDIS_PREFIX must be 1 to 64 letters, digits or :_.- (got "${env.REDIS_PREFIX}")`);

  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const maxJsonBodyBytes = Number(env.MAX_JSON_BODY_BYTES ?? 16 * 1024 * 1024);
  if (!Number.isInteger(maxJsonBodyBytes) || maxJsonBodyBytes < 1024)
    problems.push('MAX_JSON_BODY_BYTES must be an integer ≥ 1024');

  const readCacheMb = Number(env.READ_CACHE_MB ?? 128);
  if (!Number.isInteger(readCacheMb) || readCacheMb < 0)
    problems.push('READ_CACHE_MB must be an integer ≥ 0 (0 turns the read cache off)');

  // Default: one thread beside the event loop when the machine has a second core.
  const htmlFilterThreads = Number(env.HTML_FILTER_THREADS ?? (availableParallelism() > 1 ? 1 : 0));
  if (!Number.isInteger(htmlFilterThreads) || htmlFilterThreads < 0 || htmlFilterThreads > 64)
    problems.push('HTML_FILTER_THREADS must be an integer from 0 to 64');

  const ops = loadOpsConfig(env, problems);
  const allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? '0';
  if (allowPrivate !== '0' && allowPrivate !== '1') problems.push('WEBHOOK_ALLOW_PRIVATE_TARGETS must be 0 or 1');
  const webhookAllowedPorts = parsePorts(env.WEBHOOK_ALLOWED_PORTS, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    database: database as DatabaseConfig,
    publicBaseUrl,
    mediaDir,
    mediaStore,
    media,
    housekeepingIntervalS,
    eventRetentionDays: integerVariable(env, 'EVENT_RETENTION_DAYS', problems),
    publicCache: {
      maxAgeSeconds: integerVariable(env, 'PUBLIC_CACHE_MAX_AGE_SECONDS', problems),
      staleSeconds: integerVariable(env, 'PUBLIC_CACHE_STALE_SECONDS', problems),
    },
    contentAddressReadsPerMinute: integerVariable(env, 'CONTENT_ADDRESS_READS_PER_MINUTE', problems),
    redisUrl,
    redisPrefix,
    logLevel,
    maxJsonBodyBytes,
    readCacheBytes: readCacheMb * 1024 * 1024,
    htmlFilterThreads,
    ops,
    webhookAllowPrivateTargets: allowPrivate === '1',
    webhookAllowedPorts,
  };
}

function switchSetting(
  env: Environment,
  name: 'METRICS' | 'MIGRATE_ON_START',
  fallback: boolean,
  words: [on: string, off: string],
  problems: string[],
): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === words[0]) return true;
  if (raw === words[1]) return false;
  problems.push(`${name} must be ${words[0]} or ${words[1]} (got "${env[name]}")`);
  return fallback;
}

function loadOpsConfig(env: Environment, problems: string[]): OpsConfig {
  const int = (name: Parameters<typeof integerVariable>[1]) => integerVariable(env, name, problems);
  const metricsToken = env.METRICS_TOKEN?.trim() || null;
  if (metricsToken && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  const ops: OpsConfig = {
    metrics: switchSetting(env, 'METRICS', true, ['on', 'off'], problems),
    metricsToken,
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    healthCheckTimeoutMs: int('HEALTH_CHECK_TIMEOUT_MS'),
    shutdownDrainMs: int('SHUTDOWN_DRAIN_MS'),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS'),
    headersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS'),
    bodyTimeoutMs: int('HTTP_BODY_TIMEOUT_MS'),
    uploadIdleTimeoutMs: int('HTTP_UPLOAD_IDLE_TIMEOUT_MS'),
    uploadMinBytes: int('HTTP_UPLOAD_MIN_BYTES'),
    keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS'),
    maxConnections: int('HTTP_MAX_CONNECTIONS'),
    maxPendingConnections: int('HTTP_MAX_PENDING_CONNECTIONS'),
    databasePoolMax: int('DATABASE_POOL_MAX'),
    databaseStatementTimeoutMs: int('DATABASE_STATEMENT_TIMEOUT_MS'),
    databaseConnectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS'),
    databasePoolWaitTimeoutMs: int('DATABASE_POOL_WAIT_TIMEOUT_MS'),
    migrateOnStart: switchSetting(env, 'MIGRATE_ON_START', true, ['true', 'false'], problems),
  };
  if (ops.maxPendingConnections > ops.maxConnections)
    problems.push('HTTP_MAX_PENDING_CONNECTIONS must not exceed HTTP_MAX_CONNECTIONS');
  return ops;
}

/** WEBHOOK_ALLOWED_PORTS: unset or empty → the default; `any`; or a comma-separated list of ports. */
function parsePorts(raw: string | undefined, problems: string[]): number[] | null | undefined {
  const text = raw?.trim() ?? '';
  if (text === '') return undefined;
  if (text.toLowerCase() === 'any') return null;
  const ports = text.split(',').map((p) => p.trim());
  if (!ports.every((p) => /^[0-9]{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535)) {
    problems.push('WEBHOOK_ALLOWED_PORTS must be "any" or a comma-separated list of ports from 1 to 65535');
    return undefined;
  }
  return ports.map(Number);
}
