// AppContext: everything a request or a CLI command needs, built once per process.
import { ConfigError, type AppConfig } from './config/config.js';
import { openDatabase, type Db, type DatabaseHandle, type Engine, type PoolUsage } from './db/database.js';
import { writeUnits } from './db/group-commit.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';
import { loadServiceSecret } from './db/service-secret.js';
import { systemClock, type Clock } from './lib/clock.js';
import { CursorCodec } from './lib/cursor.js';
import { Observers, timeWork } from './lib/observations.js';
import { createTrafficControl, type TrafficControl } from './http/traffic/index.js';
import { AuditService } from './modules/audit/index.js';
import { CategoryService } from './modules/categories/index.js';
import { PostHtmlNestingError, PostLifecycle, PostReadCache, PostService, threadedFilter, type HtmlFilter } from './modules/posts/index.js';
import { IdempotencyService } from './modules/idempotency/index.js';
import { IdentityService } from './modules/identity/index.js';
import { KeyService } from './modules/keys/index.js';
import { versionSource } from './cache/index.js';
import { createMediaService, type MediaService } from './modules/media/index.js';
import { HousekeepingService } from './modules/housekeeping/index.js';
import { StoreService } from './modules/stores/index.js';
import { PreviewLinks, StorefrontService } from './modules/storefront/index.js';
import { WebhookService, WebhookWorker } from './modules/webhooks/index.js';
import { API_VERSION_DATE } from './version.js';

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
  posts: PostService;
  lifecycle: PostLifecycle;
  categories: CategoryService;
  storefront: StorefrontService;
  /** Signs and checks draft preview links (POST /v1/blog/posts/{id}/preview-links). */
  previewLinks: PreviewLinks;
  traffic: TrafficControl;
  /** Statements this process has sent to the database so far (tests count them per request). */
  queryCount(): number;
  /** Periodic cleanup: the server calls housekeeping.start(); close() stops it. */
  housekeeping: HousekeepingService;
  /** Durations reported by the modules (image processing, HTML filter); metrics listen here. */
  observers: Observers;
  /** PostgreSQL pool connections now; null on SQLite. */
  poolUsage(): PoolUsage | null;
  webhooks: WebhookService;
  /** Sends webhook deliveries; the server starts it, ctx.close() stops it. */
  webhookWorker: WebhookWorker;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  /** Runs migrations on open (servers and CLI do; default true). */
  migrate?: boolean;
  onTrafficBackendError?: (err: unknown) => void;
  database?: DatabaseHandle;
}

export async function createContext(config: AppConfig, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const handle =
    options.database ??
    openDatabase(config.database, {
      poolSize: config.ops.databasePoolMax,
      statementTimeoutMs: config.ops.databaseStatementTimeoutMs,
      connectTimeoutMs: config.ops.databaseConnectTimeoutMs,
    });
  try {
    if (options.migrate !== false) await migrateToLatest(handle);
    else await requireCurrentSchema(handle);
    const cursors = new CursorCodec(await loadServiceSecret(handle.db, 'cursor_secret'));
    const traffic = createTrafficControl({ redisUrl: config.redisUrl ?? undefined, clock, onBackendError: options.onTrafficBackendError });
    const { db } = handle;
    // One source of cache versions for every cache (src/cache), read once per request.
    const versions = versionSource(handle);
    const postReads = config.readCacheBytes > 0 ? new PostReadCache(config.readCacheBytes) : null;
    const observers = new Observers();
    const htmlFilter = timedFilter(threadedFilter(config.htmlFilterThreads), observers);
    const writes = writeUnits(db, handle.engine);
    const posts = new PostService(db, clock, cursors, config.publicBaseUrl, { reads: postReads, htmlFilter, writes });
    const previewLinks = new PreviewLinks(await loadServiceSecret(handle.db, 'preview_link_secret'), clock, config.publicBaseUrl);
    const storefront = new StorefrontService(db, clock, config.publicBaseUrl, undefined, previewLinks);
    const media = createMediaService(db, clock, config);
    const housekeeping = new HousekeepingService(db, clock, media.files, config.housekeepingIntervalS * 1000);
    media.observer = observers;
    const allowPrivateTargets = config.webhookAllowPrivateTargets;
    const webhookWorker = new WebhookWorker(db, handle.engine, clock, { publicBaseUrl: config.publicBaseUrl, allowPrivateTargets });
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
      posts,
      lifecycle: new PostLifecycle(db, clock, posts, writes),
      categories: new CategoryService(db, clock),
      storefront,
      previewLinks,
      traffic,
      queryCount: () => handle.queryCount(),
      housekeeping,
      observers,
      poolUsage: () => handle.poolUsage(),
      webhooks: new WebhookService(db, handle.engine, clock, cursors, { allowPrivateTargets }),
      webhookWorker,
      async close() {
        // A pass under way stops at its next batch, before the database and the store close.
        await housekeeping.stop();
        await webhookWorker.stop();
        // Page views counted in memory are written before the database closes.
        await storefront.close();
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

/** The filter with each call's duration reported; a body refused for its nesting is a rejection. */
function timedFilter(inner: HtmlFilter, observers: Observers): HtmlFilter {
  return {
    filter: (html) => timeWork(observers, 'html_filter', () => inner.filter(html), (err) => err instanceof PostHtmlNestingError),
    close: () => inner.close(),
  };
}

/** Without migrating on start, a schema behind this code stops the start instead of failing requests. */
async function requireCurrentSchema(handle: DatabaseHandle): Promise<void> {
  const pending = await pendingMigrations(handle);
  if (pending.length > 0) {
    throw new ConfigError([`MIGRATE_ON_START=false and the database has not run migrations ${pending.join(', ')}: run \`blog-api migrate\` first`]);
  }
}
