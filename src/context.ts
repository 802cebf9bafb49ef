// AppContext: everything a request or a CLI command needs, built once per process.
import type { AppConfig } from './config/config.js';
import { openDatabase, type Db, type DatabaseHandle, type Engine } from './db/database.js';
import { writeUnits } from './db/group-commit.js';
import { migrateToLatest } from './db/migrate.js';
import { loadServiceSecret } from './db/service-secret.js';
import { systemClock, type Clock } from './lib/clock.js';
import { CursorCodec } from './lib/cursor.js';
import { createTrafficControl, type TrafficControl } from './http/traffic/index.js';
import { AuditService } from './modules/audit/index.js';
import { CategoryService } from './modules/categories/index.js';
import { POST_READ_TABLES, PostLifecycle, PostReadCache, PostService, threadedFilter } from './modules/posts/index.js';
import { IdempotencyService } from './modules/idempotency/index.js';
import { IDENTITY_TABLES, IdentityService } from './modules/identity/index.js';
import { CALLER_TABLES, KeyService } from './modules/keys/index.js';
import { createMediaService, type MediaService } from './modules/media/index.js';
import { StoreService } from './modules/stores/index.js';
import { StorefrontService } from './modules/storefront/index.js';
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
  traffic: TrafficControl;
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
  const handle = options.database ?? openDatabase(config.database);
  try {
    if (options.migrate !== false) await migrateToLatest(handle);
    const cursors = new CursorCodec(await loadServiceSecret(handle.db, 'cursor_secret'));
    const traffic = createTrafficControl({ redisUrl: config.redisUrl ?? undefined, clock, onBackendError: options.onTrafficBackendError });
    const { db } = handle;
    const postReadsWatch = config.readCacheBytes > 0 ? handle.watchTables(POST_READ_TABLES) : null;
    const postReads = postReadsWatch && new PostReadCache(postReadsWatch, config.readCacheBytes);
    const htmlFilter = threadedFilter(config.htmlFilterThreads);
    const writes = writeUnits(db, handle.engine);
    const posts = new PostService(db, clock, cursors, config.publicBaseUrl, { reads: postReads, htmlFilter, writes });
    const storefront = new StorefrontService(db, clock, config.publicBaseUrl);
    const allowPrivateTargets = config.webhookAllowPrivateTargets;
    const webhookWorker = new WebhookWorker(db, handle.engine, clock, { publicBaseUrl: config.publicBaseUrl, allowPrivateTargets });
    return {
      config,
      engine: handle.engine,
      db,
      clock,
      cursors,
      stores: new StoreService(db, clock),
      keys: new KeyService(db, clock, handle.watchTables(CALLER_TABLES)),
      identity: new IdentityService(db, clock, API_VERSION_DATE, handle.watchTables(IDENTITY_TABLES)),
      audit: new AuditService(db, cursors),
      idempotency: new IdempotencyService(db, clock, writes),
      media: createMediaService(db, clock, config),
      posts,
      lifecycle: new PostLifecycle(db, clock, posts, writes),
      categories: new CategoryService(db, clock),
      storefront,
      traffic,
      webhooks: new WebhookService(db, handle.engine, clock, cursors, { allowPrivateTargets }),
      webhookWorker,
      async close() {
        await webhookWorker.stop();
        // Page views counted in memory are written before the database closes.
        await storefront.close();
        await htmlFilter.close();
        await traffic.close();
        await handle.close();
      },
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
