// AppContext: everything a request or a CLI command needs, built once per process.
import { ConfigError, type AppConfig } from './config/config.js';
import { openDatabase, type Db, type DatabaseHandle, type Engine, type PoolUsage } from './db/database.js';
import { DATABASE_FAILURE_KINDS, databaseFailureKind, type DatabaseFailureKind } from './db/database-errors.js';
import type { CircuitBreaker } from './lib/circuit-breaker.js';
import { DependencyHealth } from './lib/dependency-health.js';
import { writeTransactions } from './db/group-commit.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';
import { loadServiceSecret, readServiceSetting } from './db/service-secret.js';
import { systemClock, type Clock } from './lib/clock.js';
import { CursorCodec } from './lib/cursor.js';
import { Observers, timeWork } from './lib/observations.js';
import { PeriodicJobs, type PeriodicJob } from './lib/periodic.js';
import type { Timers } from './lib/timers.js';
import { createTrafficControl, RedisHealth, type TrafficControl } from './traffic/index.js';
import { databaseIdentity, namespaceOf } from './db/database-identity.js';
import { AuditService } from './modules/audit/index.js';
import { CategoryService } from './modules/categories/index.js';
import {
  PostHtmlNestingError,
  PostLifecycle,
  PostReadCache,
  PostService,
  publishDueSchedules,
  threadedFilter,
  type HtmlFilter,
} from './modules/posts/index.js';
import { IdBlocks } from './db/id-blocks.js';
import { IdempotencyService } from './modules/idempotency/index.js';
import { IdentityService } from './modules/identity/index.js';
import { KeyService } from './modules/keys/index.js';
import { RECONCILE_INTERVAL_MS, SHARED_VERSIONS_SETTING, SharedVersions, versionSource } from './cache/index.js';
import { createMediaService, ImageReads, type MediaService } from './modules/media/index.js';
import { HousekeepingService, housekeepingJob } from './modules/housekeeping/index.js';
import { StoreService } from './modules/stores/index.js';
import {
  PreviewLinks,
  PublishingService,
  StorefrontService,
  VIEW_FLUSH_INTERVAL_MS,
} from './modules/storefront/index.js';
import { DeliveryRecovery, POLL_INTERVAL_MS, WebhookService, WebhookWorker } from './modules/webhooks/index.js';
import { EventFeed } from './modules/events/index.js';
import { API_VERSION_DATE } from './version.js';
import { sampleEventData } from './bootstrap/sample-event-data.js';

export interface AppContext {
  config: AppConfig;
  engine: Engine;
  db: Db;
  clock: Clock;
  cursors: CursorCodec;
  stores: StoreService;
  keys: KeyService;
  identity: IdentityService;
  audit: AuditService;
  idempotency: IdempotencyService;
  media: MediaService;
  /** GET /v1/media/images and GET /v1/media/images/{id}. */
  images: ImageReads;
  posts: PostService;
  lifecycle: PostLifecycle;
  categories: CategoryService;
  storefront: StorefrontService;
  /** Feeds, sitemaps and robots.txt. */
  publishing: PublishingService;
  /** Signs and checks draft preview links (POST /v1/blog/posts/{id}/preview-links). */
  previewLinks: PreviewLinks;
  traffic: TrafficControl;
  /**
   * PostgreSQL with Redis: the stores' cache versions also kept in Redis (src/cache/shared-versions.ts);
   * writers drop them after their commit. null otherwise.
   */
  sharedVersions: SharedVersions | null;
  /** Redis errors by kind, for metrics, /readyz and the log (null without REDIS_URL). */
  redisHealth: RedisHealth | null;
  /** Failures of the link to PostgreSQL by kind (never SQL errors), for the same (null on SQLite). */
  databaseHealth: DependencyHealth<DatabaseFailureKind> | null;
  /** The circuit breakers of this process's dependencies (PostgreSQL, Redis), for metrics, /readyz and the log. */
  breakers: CircuitBreaker[];
  /** Readiness: the database answers now, asked outside the request pool. */
  checkDatabase(): Promise<void>;
  /** Statements this process has sent to the database so far (tests count them per request). */
  queryCount(): number;
  /** Cleanup passes (a periodic job; the CLI runs one pass on demand). */
  housekeeping: HousekeepingService;
  /** The background jobs (listed in backgroundJobs below): the server starts them, close() stops them. */
  jobs: PeriodicJobs;
  /** Durations reported by the modules (image processing, HTML filter); metrics listen here. */
  observers: Observers;
  /** PostgreSQL pool connections now; null on SQLite. */
  poolUsage(): PoolUsage | null;
  webhooks: WebhookService;
  /** GET /v1/events. */
  events: EventFeed;
  /** A delivery's attempts, retry and replay. */
  deliveryRecovery: DeliveryRecovery;
  /** Sends webhook deliveries (polled by a periodic job); ctx.close() stops it. */
  webhookWorker: WebhookWorker;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  /** Runs migrations on open (servers and CLI do; default true). */
  migrate?: boolean;
  onTrafficBackendError?: (err: unknown) => void;
  /** Called (never awaited) when the cache versions kept in Redis could not be read, filled or dropped. */
  onSharedVersionsError?: (err: unknown) => void;
  /**
   * The operator CLI: never marks the database as keeping versions in Redis, and refuses to
   * start (before any change) when it does and Redis is not configured or does not answer.
   */
  operator?: boolean;
  /** An operator command that changes nothing: it drops nothing in Redis, so it needs no Redis. */
  readOnly?: boolean;
  database?: DatabaseHandle;
  /** Timers the background jobs wait on (default: the system's). */
  timers?: Timers;
}

export async function createContext(config: AppConfig, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const databaseHealth =
    config.database.engine === 'postgres'
      ? new DependencyHealth<DatabaseFailureKind>(clock, DATABASE_FAILURE_KINDS, databaseFailureKind)
      : null;
  const handle =
    options.database ??
    openDatabase(config.database, {
      poolSize: config.ops.databasePoolMax,
      statementTimeoutMs: config.ops.databaseStatementTimeoutMs,
      connectTimeoutMs: config.ops.databaseConnectTimeoutMs,
      poolWaitTimeoutMs: config.ops.databasePoolWaitTimeoutMs,
      checkTimeoutMs: config.ops.healthCheckTimeoutMs,
      onLinkFailure: (err) => databaseHealth?.record(err),
    });
  try {
    if (options.migrate !== false) await migrateToLatest(handle);
    else await requireCurrentSchema(handle);
    const cursors = new CursorCodec(await loadServiceSecret(handle.db, 'cursor_secret'));
    const redisHealth = config.redisUrl ? new RedisHealth(clock) : null;
    // Redis keys: REDIS_PREFIX, then a name drawn for this database and its identity, so a copied
    // or restored database never counts or caches under another's keys (docs/architecture.md, "Caches").
    const identity = config.redisUrl ? await databaseIdentity(handle.db, handle.engine) : '';
    const trafficPrefix = config.redisUrl
      ? `${config.redisPrefix}${namespaceOf(await loadServiceSecret(handle.db, REDIS_NAMESPACE_SETTING), identity)}:`
      : config.redisPrefix;
    const traffic = createTrafficControl({
      redisUrl: config.redisUrl ?? undefined,
      clock,
      keyPrefix: trafficPrefix,
      onBackendError: (err) => {
        redisHealth?.record(err);
        options.onTrafficBackendError?.(err);
      },
    });
    let sharedVersions: SharedVersions | null;
    try {
      sharedVersions = await openSharedVersions(handle, traffic, options, {
        url: config.redisUrl ?? '',
        prefix: config.redisPrefix,
        identity,
        health: redisHealth,
        databaseHealth,
      });
    } catch (err) {
      await traffic.close();
      throw err;
    }
    const { db } = handle;
    // One source of cache versions for every cache (src/cache), read once per request.
    const versions = versionSource(handle);
    const postReads = config.readCacheBytes > 0 ? new PostReadCache(config.readCacheBytes) : null;
    const observers = new Observers();
    const htmlFilter = timedFilter(threadedFilter(config.htmlFilterThreads), observers);
    const writes = writeTransactions(db, handle.engine);
    // PostgreSQL creates a post in one statement, with its id taken ahead (create-statement.ts).
    const ids = handle.engine === 'postgres' ? new IdBlocks(db, 'posts') : null;
    const posts = new PostService(db, clock, cursors, config.publicBaseUrl, {
      reads: postReads,
      htmlFilter,
      writes,
      engine: handle.engine,
      ids,
    });
    const previewLinks = new PreviewLinks(
      await loadServiceSecret(handle.db, 'preview_link_secret'),
      clock,
      config.publicBaseUrl,
    );
    const storefront = new StorefrontService(db, clock, config.publicBaseUrl, previewLinks);
    const media = createMediaService(db, clock, config);
    const housekeeping = new HousekeepingService(
      db,
      clock,
      media.files,
      config.housekeepingIntervalS * 1000,
      config.eventRetentionDays,
    );
    media.observer = observers;
    const allowPrivateTargets = config.webhookAllowPrivateTargets;
    const webhookWorker = new WebhookWorker(db, handle.engine, clock, {
      allowPrivateTargets,
      allowedPorts: config.webhookAllowedPorts,
      // A scheduled post's post.published is recorded when its time comes, then sent by the same poll.
      beforePoll: (now) => publishDueSchedules(db, now, config.publicBaseUrl),
    });
    const categories = new CategoryService(db, clock, config.publicBaseUrl);
    const images = new ImageReads(db, cursors, config.publicBaseUrl);
    const jobs = new PeriodicJobs(backgroundJobs({ housekeeping, webhookWorker, storefront, sharedVersions }), {
      timers: options.timers,
      now: () => clock.now().getTime(),
    });
    return {
      config,
      engine: handle.engine,
      db,
      clock,
      cursors,
      stores: new StoreService(db, clock),
      keys: new KeyService(db, clock, versions),
      identity: new IdentityService(db, clock, API_VERSION_DATE),
      audit: new AuditService(db, cursors),
      // The record's first write is one statement: on PostgreSQL it runs on its own (atomic,
      // one round trip) instead of in a transaction of its own (three).
      idempotency: new IdempotencyService(db, clock, handle.engine === 'sqlite' ? writes : undefined),
      media,
      images,
      posts,
      lifecycle: new PostLifecycle(db, clock, posts, writes),
      categories,
      storefront,
      publishing: new PublishingService(db, clock, config.publicBaseUrl),
      previewLinks,
      traffic,
      sharedVersions,
      redisHealth,
      databaseHealth,
      breakers: [handle.breaker, traffic.redis?.breaker ?? null].filter((b): b is CircuitBreaker => b !== null),
      checkDatabase: () => handle.check(),
      queryCount: () => handle.queryCount(),
      housekeeping,
      jobs,
      observers,
      poolUsage: () => handle.poolUsage(),
      webhooks: new WebhookService(db, clock, cursors, {
        allowPrivateTargets,
        allowedPorts: config.webhookAllowedPorts,
        sampleData: sampleEventData({ posts, categories, images }),
      }),
      webhookWorker,
      events: new EventFeed(db, handle.engine, config.eventRetentionDays),
      deliveryRecovery: new DeliveryRecovery(db, handle.engine, clock),
      async close() {
        // The one stop path of background work (src/lib/periodic.ts): a housekeeping pass under
        // way stops at its next batch, webhook sends in flight end, and page views counted in
        // memory are written, all before the database and the store close.
        await jobs.stop();
        await htmlFilter.close();
        await traffic.close();
        await media.files.close();
        await handle.close();
      },
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Every background job of a server, listed once (src/lib/periodic.ts runs them). */
function backgroundJobs(parts: {
  housekeeping: HousekeepingService;
  webhookWorker: WebhookWorker;
  storefront: StorefrontService;
  sharedVersions: SharedVersions | null;
}): PeriodicJob[] {
  const { housekeeping, webhookWorker, storefront, sharedVersions } = parts;
  const jobs: PeriodicJob[] = [
    housekeepingJob(housekeeping),
    {
      name: 'webhook-delivery',
      intervalMs: POLL_INTERVAL_MS,
      atStart: async (log) => webhookWorker.start(log),
      run: () => webhookWorker.pollOnce(),
      // Sends started between polls (each finished attempt claims again) end before the database closes.
      drain: () => webhookWorker.stop(),
    },
    // Page views counted in memory, written about once a second (view-counter.ts); the last ones at stop.
    {
      name: 'view-counts',
      intervalMs: VIEW_FLUSH_INTERVAL_MS,
      run: () => storefront.views.flush(),
      drain: () => storefront.close(),
    },
  ];
  if (sharedVersions) {
    // Copies of cache versions left in Redis by a writer that died after its commit: found and
    // dropped within about a second. Failures go to the Redis health report, which rate-limits them.
    jobs.push({
      name: 'cache-version-reconcile',
      intervalMs: RECONCILE_INTERVAL_MS,
      firstDelayMs: 0,
      run: () => sharedVersions.reconcile(),
      report: (err) => sharedVersions.fail(err),
    });
  }
  return jobs;
}

/**
 * PostgreSQL with Redis: a server records, once, that this database's versions are kept in Redis
 * (under a random namespace, so two databases never share copies); the CLI only follows that
 * record, and refuses to run without a Redis that answers, since it must drop the copies of
 * what it changes before it reports success.
 */
async function openSharedVersions(
  handle: DatabaseHandle,
  traffic: TrafficControl,
  options: ContextOptions,
  redis: {
    url: string;
    prefix: string;
    identity: string;
    health: RedisHealth | null;
    databaseHealth: DependencyHealth<DatabaseFailureKind> | null;
  },
): Promise<SharedVersions | null> {
  if (handle.engine !== 'postgres' || (options.operator && options.readOnly)) return null;
  const report = (err: unknown) => {
    redis.health?.record(err);
    options.onSharedVersionsError?.(err);
  };
  if (!traffic.redis) {
    if (options.operator && (await readServiceSetting(handle.db, SHARED_VERSIONS_SETTING)) !== null) {
      throw new ConfigError([
        "this database's API servers keep cache versions in Redis, so an operator command must drop them there after its change: set REDIS_URL to their Redis (nothing was changed)",
      ]);
    }
    return null;
  }
  const namespace = options.operator
    ? await readServiceSetting(handle.db, SHARED_VERSIONS_SETTING)
    : await loadServiceSecret(handle.db, SHARED_VERSIONS_SETTING);
  if (namespace === null) return null;
  const connection = traffic.redis;
  const shared = new SharedVersions(
    connection.client,
    handle.db,
    redis.prefix,
    namespace,
    redis.identity,
    report,
    () => connection.whenSettled(),
    (err) => redis.databaseHealth?.record(err),
  );
  if (options.operator) {
    try {
      await traffic.redis.whenSettled();
      await shared.check();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ConfigError([
        `cannot reach Redis at ${redisAddress(redis.url)} (REDIS_URL: ${reason}), where this database's API servers keep cache versions; nothing was changed`,
      ]);
    }
  }
  return shared;
}

/** The service_settings row whose random value, with the database's identity, names its Redis keys. */
export const REDIS_NAMESPACE_SETTING = 'redis_namespace';

/** host:port of a Redis URL, never its password. */
export function redisAddress(url: string | undefined): string {
  try {
    const parsed = new URL(url ?? '');
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}

/** The filter with each call's duration reported; a body refused for its nesting is a rejection. */
function timedFilter(inner: HtmlFilter, observers: Observers): HtmlFilter {
  return {
    filter: (html) =>
      timeWork(
        observers,
        'html_filter',
        () => inner.filter(html),
        (err) => err instanceof PostHtmlNestingError,
      ),
    close: () => inner.close(),
  };
}

/** Without migrating on start, a schema behind this code stops the start instead of failing requests. */
async function requireCurrentSchema(handle: DatabaseHandle): Promise<void> {
  const pending = await pendingMigrations(handle);
  if (pending.length > 0) {
    throw new ConfigError([
      `MIGRATE_ON_START=false and the database has not run migrations ${pending.join(', ')}: run \`blog-api migrate\` first`,
    ]);
  }
}
