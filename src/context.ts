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
import { PostLifecycle, PostReadCache, PostService, threadedFilter } from './modules/posts/index.js';
import { IdempotencyService } from './modules/idempotency/index.js';
import { IdentityService } from './modules/identity/index.js';
import { KeyService } from './modules/keys/index.js';
import { versionSource } from './cache/index.js';
import { createMediaService, type MediaService } from './modules/media/index.js';
import { StoreService } from './modules/stores/index.js';
import { StorefrontService } from './modules/storefront/index.js';
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
  /** Statements this process has sent to the database so far (tests count them per request). */
  queryCount(): number;
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
    // One source of cache versions for every cache (src/cache), read once per request.
    const versions = versionSource(handle);
    const postReads = config.readCacheBytes > 0 ? new PostReadCache(config.readCacheBytes) : null;
    const htmlFilter = threadedFilter(config.htmlFilterThreads);
    const writes = writeUnits(db, handle.engine);
    const posts = new PostService(db, clock, cursors, config.publicBaseUrl, { reads: postReads, htmlFilter, writes });
    const storefront = new StorefrontService(db, clock, config.publicBaseUrl);
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
      media: createMediaService(db, clock, config),
      posts,
      lifecycle: new PostLifecycle(db, clock, posts, writes),
      categories: new CategoryService(db, clock),
      storefront,
      traffic,
      queryCount: () => handle.queryCount(),
      async close() {
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
