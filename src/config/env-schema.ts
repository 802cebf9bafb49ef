// Every environment variable the service reads, declared once: its name, its default and what it
// means (the README's configuration table is checked against this by
// test/unit/deployment-files.test.ts) and, for the plain integer settings, the range it takes.
// config.ts reads the environment only through `readEnvironment`, so a variable missing here
// cannot be read at all.
import { Type, type Static, type TObject, type TOptional, type TString } from '@sinclair/typebox';
import { DEFAULT_DECODE_BUDGET } from './decode-budget.js';

const HOUR_MS = 3_600_000;
export const S3_DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
export const S3_DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

/** A variable as text: `default` is the default as the README shows it (a value or a phrase). */
const text = (fallback: string, description: string) => Type.Optional(Type.String({ default: fallback, description }));

interface IntegerRule {
  fallback: number;
  minimum: number;
  maximum: number;
}

/** A whole number from `minimum` to `maximum`, `default` when unset or empty. */
const integer = (fallback: number, minimum: number, maximum: number, description: string) =>
  Type.Optional(
    Type.String({ default: String(fallback), description, 'x-integer': { fallback, minimum, maximum } }),
  ) as TOptional<TString> & { readonly 'x-integer': IntegerRule };

export const ENV_SCHEMA = Type.Object({
  PORT: text('8080', 'listening port'),
  HOST: text('127.0.0.1', 'listening address'),
  DATABASE_URL: text('sqlite:./data/blog.db', '`sqlite:<path>` or `postgres://user@host:port/db`'),
  PUBLIC_BASE_URL: text('http://<HOST>:<PORT>', 'base of image URLs and store-front addresses'),
  MEDIA_DIR: text('`media/` beside the SQLite file, else `./data/media`', 'where uploaded images are stored'),
  REDIS_URL: text(
    'unset',
    'share per-minute and in-flight counters across instances; on PostgreSQL also where the servers keep copies of the cache versions (a cached read then sends PostgreSQL nothing), and the CLI then needs the same `REDIS_URL` (see `docs/architecture.md`, "Caches")',
  ),
  REDIS_PREFIX: text(
    '`blogapi:`',
    "prefix of every Redis key the service writes; two deployments may share one Redis with different prefixes (each database also keeps its own keys apart under a name drawn for it, so two databases never see each other's copies or counters even with one prefix; a restore deletes only the keys under its prefix, `docs/deployment.md`); letters, digits and `:_.-`, at most 64 characters",
  ),
  LOG_LEVEL: text('info', '`fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`'),
  MAX_JSON_BODY_BYTES: text('16777216', 'hard ceiling on any JSON request body (per-store limits apply below it)'),
  HTML_FILTER_THREADS: text(
    '`1` (`0` on a one-core machine)',
    'worker threads that filter post bodies of 16 KB or more (shorter ones are cheaper in place); `0` filters every body on the event loop',
  ),
  READ_CACHE_MB: text(
    '128',
    'memory for posts and list pages cached between reads (`0` turns it off); see `docs/architecture.md`, "Caches"',
  ),
  MEDIA_STORE: text('local', '`local` (the `MEDIA_DIR` folder) or `s3` (an S3-compatible bucket); see `docs/media.md`'),
  S3_BUCKET: text(
    '—',
    "the bucket (required with `MEDIA_STORE=s3`); credentials come from the AWS SDK's default chain (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, …)",
  ),
  S3_ENDPOINT: text('unset (AWS)', 'another S3-compatible server, e.g. `http://127.0.0.1:9000`'),
  S3_REGION: text('us-east-1', 'region the requests are signed for'),
  S3_FORCE_PATH_STYLE: text('false', '`true` for servers without bucket sub-domains (MinIO)'),
  S3_PREFIX: text('empty', 'key prefix (a folder) inside the bucket'),
  S3_CHECKSUMS: text(
    '`when_required` with `S3_ENDPOINT`, else `when_supported`',
    'request checksums; `when_required` for servers that mis-store `aws-chunked` uploads',
  ),
  S3_CONNECT_TIMEOUT_MS: text(String(S3_DEFAULT_CONNECT_TIMEOUT_MS), 'time to connect to the object store'),
  S3_REQUEST_TIMEOUT_MS: text(
    String(S3_DEFAULT_REQUEST_TIMEOUT_MS),
    'time for an object-store request to answer (and longest silence while streaming)',
  ),
  MEDIA_UPLOAD_IDLE_TIMEOUT_SECONDS: text(
    '30',
    'an upload that sends no byte for this long is answered `422` and dropped; see `docs/media.md`',
  ),
  MEDIA_UPLOAD_TIMEOUT_SECONDS: text(
    'unset (no total limit)',
    'when set, the whole upload must arrive within this time',
  ),
  MEDIA_MAX_ANIMATION_PIXELS: integer(
    DEFAULT_DECODE_BUDGET.maxAnimationPixels,
    1,
    1_000_000_000,
    'frames × canvas pixels one animated image may cost, whatever a store allows (`413 image_too_large`)',
  ),
  MEDIA_PROCESSING_TIMEOUT_SECONDS: integer(
    DEFAULT_DECODE_BUDGET.timeoutSeconds,
    1,
    3600,
    'time one image may take to decode and re-encode (`413 image_too_large`)',
  ),
  MEDIA_PROCESSING_CONCURRENCY: text(
    'half the CPU cores, at least 1, at most `UV_THREADPOOL_SIZE` − 1',
    'images one process decodes and re-encodes at once; other uploads wait their turn, taken by store in rotation; see `docs/media.md`',
  ),
  MEDIA_PROCESSING_WAIT_SECONDS: integer(
    10,
    1,
    3600,
    'longest wait for an image processing turn, then `429 concurrency_limited` with `Retry-After`',
  ),
  UV_THREADPOOL_SIZE: integer(
    4,
    2,
    1024,
    "threads of Node.js's pool (file reads, image processing, DNS), read when the pool is first used; image processing takes at most `MEDIA_PROCESSING_CONCURRENCY` of them",
  ),
  HOUSEKEEPING_INTERVAL_S: text('300', 'seconds between housekeeping passes; see `docs/housekeeping.md`'),
  EVENT_RETENTION_DAYS: integer(
    30,
    30,
    3650,
    'days an event stays in `GET /v1/events` and can be replayed to a webhook; see `docs/api-behaviour.md`',
  ),
  PUBLIC_CACHE_MAX_AGE_SECONDS: integer(
    60,
    1,
    86_400,
    'how long a browser or CDN may keep a public answer (store-front pages, feeds, sitemaps, the Content API) without asking again: a change or an unpublish shows within it; see `docs/publishing.md`',
  ),
  PUBLIC_CACHE_STALE_SECONDS: integer(
    30,
    0,
    86_400,
    'after `PUBLIC_CACHE_MAX_AGE_SECONDS`, how long a cache may still answer with its copy while it revalidates (`stale-while-revalidate`)',
  ),
  CONTENT_ADDRESS_READS_PER_MINUTE: integer(
    120,
    1,
    1_000_000,
    'per client address, the requests a minute one `read_published` key (a key a public page may hold) answers, beside its own per-key limit; see `docs/content-api.md`',
  ),
  TRUST_PROXY: text(
    'unset (none)',
    "whose `X-Forwarded-For` gives the client address (in the access log, and for the per-address limit of `read_published` keys): a hop count (`1` = one balancer in front) or the balancers' addresses/CIDRs, comma-separated; see `docs/deployment.md`",
  ),
  METRICS: text('on', '`off` removes `GET /metrics`; see `docs/operations.md`'),
  METRICS_TOKEN: text(
    'unset (open)',
    'when set (≥ 16 characters), `GET /metrics` needs `Authorization: Bearer <token>`',
  ),
  HEALTH_CHECK_TIMEOUT_MS: integer(
    2000,
    10,
    60_000,
    'each `/readyz` check (database, Redis, media store) gives up after this long',
  ),
  // Longer than a load balancer takes to see /readyz fail and to close its idle connections
  // (the reference configs in deploy/: about 2 s and 3 s), so nothing new arrives once the
  // listener closes (docs/deployment.md).
  SHUTDOWN_DRAIN_MS: integer(
    5_000,
    0,
    HOUR_MS,
    'after `SIGTERM`, how long the process keeps serving with `/readyz` failing before it stops accepting (`SIGINT`: no drain)',
  ),
  SHUTDOWN_GRACE_MS: integer(10_000, 0, HOUR_MS, 'after the drain, how long requests in flight get to finish'),
  HTTP_HEADERS_TIMEOUT_MS: integer(20_000, 10, HOUR_MS, 'request line and headers must arrive within this time'),
  HTTP_BODY_TIMEOUT_MS: integer(30_000, 10, HOUR_MS, 'a JSON (non-multipart) body must arrive whole within this time'),
  HTTP_UPLOAD_IDLE_TIMEOUT_MS: integer(
    20_000,
    10,
    HOUR_MS,
    'an upload must bring `HTTP_UPLOAD_MIN_BYTES` in every interval this long (no total limit)',
  ),
  HTTP_UPLOAD_MIN_BYTES: integer(1024, 1, 1024 * 1024 * 1024, "the upload's minimum pace per interval"),
  // Longer than the idle timeout of common load balancers (60 s), so the balancer, not this
  // server, closes an idle connection and never sends a request into one being closed.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(
    75_000,
    1,
    HOUR_MS,
    "idle keep-alive connections close after this (longer than a load balancer's 60 s)",
  ),
  HTTP_MAX_CONNECTIONS: integer(10_000, 1, 1_000_000, 'open connections at most'),
  HTTP_MAX_PENDING_CONNECTIONS: integer(
    1_000,
    1,
    1_000_000,
    'connections that have not yet sent a complete request, at most',
  ),
  DATABASE_POOL_MAX: integer(10, 1, 1000, 'PostgreSQL connections per process'),
  DATABASE_STATEMENT_TIMEOUT_MS: integer(
    30_000,
    0,
    HOUR_MS,
    'PostgreSQL ends statements running longer (`0`: no limit)',
  ),
  DATABASE_CONNECT_TIMEOUT_MS: integer(
    5_000,
    10,
    HOUR_MS,
    'giving up on opening a PostgreSQL connection after this long',
  ),
  DATABASE_POOL_WAIT_TIMEOUT_MS: integer(
    5_000,
    10,
    HOUR_MS,
    'a request waits this long at most for a pooled PostgreSQL connection when all are in use, then answers `503 service_unavailable` with `Retry-After`',
  ),
  MIGRATE_ON_START: text(
    'true',
    '`false`: the server does not migrate (run `blog-api migrate` once) and refuses a schema that is behind',
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: text(
    '0',
    '`1` lets webhooks go to `http` and loopback or private addresses: development and tests only (`docs/webhooks.md`)',
  ),
  WEBHOOK_ALLOWED_PORTS: text(
    'unset: 443,8443 (any with WEBHOOK_ALLOW_PRIVATE_TARGETS=1)',
    'ports a webhook URL may name: a comma-separated list, or `any` (`docs/webhooks.md`)',
  ),
});

/** The environment as the service sees it: the declared variables only, as text. */
export type Environment = Static<typeof ENV_SCHEMA>;
export type VariableName = Extract<keyof Environment, string>;

type Properties = typeof ENV_SCHEMA extends TObject<infer P> ? P : never;
/** The variables declared with a range (`integer` above). */
export type IntegerVariable = {
  [K in VariableName]: Properties[K] extends { readonly 'x-integer': IntegerRule } ? K : never;
}[VariableName];

export const VARIABLE_NAMES = Object.keys(ENV_SCHEMA.properties) as VariableName[];

/** Picks the declared variables out of a process environment. */
export function readEnvironment(env: NodeJS.ProcessEnv): Environment {
  const picked: Record<string, string> = {};
  for (const name of VARIABLE_NAMES) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked as Environment;
}

/**
 * A variable declared with a range: its value, or its default when unset or empty; a value out
 * of range is a problem (and the default stands in, so the other checks still run).
 */
export function integerVariable(env: Environment, name: IntegerVariable, problems: string[]): number {
  const { fallback, minimum, maximum } = ENV_SCHEMA.properties[name]['x-integer'];
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    problems.push(`${name} must be an integer from ${minimum} to ${maximum} (got "${raw}")`);
    return fallback;
  }
  return value;
}
