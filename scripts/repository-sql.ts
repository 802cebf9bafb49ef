// The SQL each repository function sends, on both engines, committed as docs/sql/<module>.sql
// (and that of the other files that build SQL, as docs/sql/<file>.sql) so a review of a query
// change shows the statements that will run. Each function below is called
// with sample arguments on a Kysely whose driver only records the compiled statements (every
// statement "returns" one sample row and changes one row, so a function reaches all of its
// statements); nothing touches a database. Where the statements run inside an object with state
// (a worker, a lease, a counter), the object is built on that Kysely, its other collaborators
// (clock, Redis, media store, HTTP sender) standing in so that nothing leaves the process.
//   npx tsx scripts/repository-sql.ts    regenerate (after changing a repository query)
// test/unit/repository-sql.test.ts fails while a committed file is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Db, Engine } from '../src/db/database.js';
import { isPostgres } from '../src/db/engine-of.js';
import type { Database } from '../src/db/schema.js';
import * as audit from '../src/modules/audit/audit-repository.js';
import * as categories from '../src/modules/categories/category-repository.js';
import * as keys from '../src/modules/keys/key-repository.js';
import * as media from '../src/modules/media/media-repository.js';
import * as posts from '../src/modules/posts/post-repository.js';
import * as quotas from '../src/modules/quotas/quota-repository.js';
import * as stores from '../src/modules/stores/store-repository.js';
import { STORE_DEFAULTS } from '../src/modules/stores/store-settings.js';
import * as createStatement from '../src/modules/posts/create-statement.js';
import * as duplicateWindow from '../src/modules/posts/duplicate-window.js';
import * as postSearch from '../src/modules/posts/post-search.js';
import * as scheduleScan from '../src/modules/posts/schedule-scan.js';
import * as auditRecorder from '../src/modules/audit/audit-recorder.js';
import * as quotaService from '../src/modules/quotas/quota-service.js';
import * as deliveryEnqueue from '../src/modules/events/delivery-enqueue.js';
import * as deliveryQueue from '../src/modules/events/delivery-queue.js';
import * as eventOutbox from '../src/modules/events/event-outbox.js';
import * as eventRetention from '../src/modules/events/event-retention.js';
import * as attemptLog from '../src/modules/webhooks/attempt-log.js';
import * as deliveryClaim from '../src/modules/webhooks/delivery-claim.js';
import * as expiredRows from '../src/modules/housekeeping/expired-rows.js';
import { storeFromRow } from '../src/modules/stores/store-settings.js';
import { sql } from 'kysely';
import * as webhooks from '../src/modules/webhooks/webhook-repository.js';
import * as origins from '../src/modules/stores/origin-repository.js';
import * as imageSizes from '../src/modules/storefront/image-size-repository.js';
import * as publishing from '../src/modules/storefront/publishing-repository.js';
import * as storefront from '../src/modules/storefront/storefront-repository.js';
import type { DatabaseHandle } from '../src/db/database.js';
import { ManualClock } from '../src/lib/clock.js';
import { versionSource } from '../src/cache/versions.js';
import { SharedVersions } from '../src/cache/shared-versions.js';
import type { Redis } from 'ioredis';
import { EventFeed } from '../src/modules/events/event-feed.js';
import * as eventTypes from '../src/modules/events/event-types.js';
import { IdempotencyService, storeResponse } from '../src/modules/idempotency/idempotency-service.js';
import type { WriteTransactions } from '../src/db/group-commit.js';
import { HousekeepingLease } from '../src/modules/housekeeping/housekeeping-lease.js';
import * as mediaCleanup from '../src/modules/media/media-cleanup.js';
import type { MediaStore } from '../src/modules/media/media-store.js';
import { ViewCounter } from '../src/modules/storefront/view-counter.js';
import { DeliveryRecovery } from '../src/modules/webhooks/delivery-recovery.js';
import { WebhookWorker, failWaitingDeliveries } from '../src/modules/webhooks/delivery-worker.js';
import type { SendOutcome } from '../src/modules/webhooks/http-sender.js';

export const SQL_DOCS_DIR = resolve(import.meta.dirname, '../docs/sql');

type Call = (db: Db) => Promise<unknown>;

interface RepositorySql {
  source: string;
  /** Each function (or variant of one) by the name it is listed under, in the file's order. */
  calls: Record<string, Call>;
  /** The row every statement "returns" (default `{ id: 1 }`), where the code reads more of it. */
  row?: Record<string, unknown>;
  /** The rows every statement "changes" (default 1), where the code goes on when none changed. */
  changed?: number;
}

const NOW = 1_700_000_000_000;
const SAMPLE_ENDPOINT: webhooks.EndpointRow = {
  id: 'wh_sample',
  store_id: 1,
  url: 'https://example.com/hook',
  events: '["*"]',
  description: null,
  enabled: 1,
  disabled_reason: null,
  secret: 'whsec_sample',
  previous_secret: null,
  previous_secret_until: null,
  failing_since: null,
  consecutive_timeouts: 0,
  circuit_open_until: null,
  created_at: NOW,
  updated_at: NOW,
};
const SAMPLE_IMAGE: media.ImageRow = {
  id: 'img_sample',
  store_id: 1,
  basename: 'sample.png',
  sha256: '0'.repeat(64),
  content_type: 'image/png',
  width: 1,
  height: 1,
  bytes: 1,
  created_at: NOW,
  deleted_at: null,
};
const NEW_POST: posts.NewPost = {
  storeId: 1,
  title: 'T',
  summary: null,
  bodyHtml: '<p>b</p>',
  warnings: '[]',
  coverImageId: null,
  defaultCategoryId: null,
  now: NOW,
};
const FIRST_PAGE: posts.ListFilter = { storeId: 1, orderBy: 'created_at', direction: 'desc', now: NOW, limit: 21 };

const SAMPLE_STORE_ROW = {
  id: 1,
  handle: 'shop',
  name: 'Shop',
  categories_enabled: 1,
  media_enabled: 1,
  certified: 1,
  writes_paused: 0,
  emoji_allowed: 1,
  webhooks_enabled: 1,
  ...STORE_DEFAULTS,
  allowed_origins: null,
  storefront_base_url: null,
  created_at: NOW,
  updated_at: NOW,
};
const SAMPLE_STORE = storeFromRow(SAMPLE_STORE_ROW);
const CREATE_WRITES = {
  ...NEW_POST,
  categoryIds: [3, 4],
  searchText: 't b',
  fingerprint: '0'.repeat(64),
  audit: { keyId: 'key_sample', application: 'app', requestId: 'req', changes: '["title"]' },
  quota: { day: '2026-01-01', limit: 200 },
  deliver: true,
};
const CREATED = { id: 2, eventBody: '{}', response: null };
const EVENT = { id: 'evt_sample', storeId: 1, type: 'post.created', body: '{}', at: NOW };
const engineOfDb = (db: Db): Engine => (isPostgres(db) ? 'postgres' : 'sqlite');
const SCOPE = { storeId: 1, application: 'app', key: 'idem-1' };
/** The collaborators of the objects whose statements are recorded: nothing real behind them. */
const NO_REDIS = { defineCommand: () => undefined, on: () => undefined } as unknown as Redis;
/** A media store holding one file written long ago, whose removals all succeed. */
const ONE_OLD_FILE = {
  list: async () => ({ objects: [{ handle: 'shop', basename: 'orphan.png', modifiedAt: new Date(0) }], next: null }),
  remove: async () => undefined,
} as unknown as MediaStore;
/** Runs the insert, then answers as the database does when the key's record already exists. */
const KEY_TAKEN: (db: Db) => WriteTransactions = (db) => ({
  run: async (work) => {
    await work(db, () => undefined);
    throw Object.assign(new Error('duplicate key'), { code: '23505' });
  },
});
const worker = (db: Db, outcome: SendOutcome) =>
  new WebhookWorker(db, engineOfDb(db), new ManualClock(NOW), {
    allowPrivateTargets: false,
    resolver: async () => [{ address: '93.184.216.34', family: 4 }],
    sender: async () => outcome,
  });
const DELIVERY_ROW = {
  id: 'whd_sample',
  store_id: 1,
  endpoint_id: SAMPLE_ENDPOINT.id,
  event_id: 'evt_sample',
  event_type: 'post.created',
  status: 'failed',
  attempts: 1,
  last_attempt_at: NOW,
  last_response_status: 500,
  next_attempt_at: null,
  waiting_reason: null,
  lease_token: 'lease',
  lease_until: null,
  retry_of: null,
  created_at: NOW,
};
const SUBSCRIBERS = { storeId: 1, eventId: EVENT.id, type: EVENT.type, at: NOW, idPrefix: 'whd_sample' };

export const REPOSITORIES: Record<string, RepositorySql> = {
  categories: {
    source: 'src/modules/categories/category-repository.ts',
    calls: {
      listCategories: (db) => categories.listCategories(db, 1),
      findCategory: (db) => categories.findCategory(db, 1, 2),
      findCategoryDepth: (db) => categories.findCategoryDepth(db, 1, 2),
      findCategoryNamed: (db) => categories.findCategoryNamed(db, 1, 'News', null),
      'findCategoryNamed (other than one)': (db) => categories.findCategoryNamed(db, 1, 'News', 2, 3),
      insertCategory: (db) =>
        categories.insertCategory(db, { storeId: 1, name: 'News', parentId: null, depth: 1, now: NOW }),
      lockTree: (db) => categories.lockTree(db, 1),
      updateCategory: (db) => categories.updateCategory(db, 1, 2, { name: 'News', parentId: 3, depth: 2, now: NOW }),
      'shiftDepths (two categories)': (db) => categories.shiftDepths(db, [4, 5], 1, NOW),
      postsOfCategory: (db) => categories.postsOfCategory(db, 1, 2),
      'detachCategory (two posts)': (db) => categories.detachCategory(db, 1, 2, [6, 7], NOW),
      deleteCategory: (db) => categories.deleteCategory(db, 1, 2),
    },
  },
  keys: {
    source: 'src/modules/keys/key-repository.ts',
    calls: {
      findKeyWithStore: (db) => keys.findKeyWithStore(db, 'key_sample'),
      findKeyWithStoreAndVersions: (db) => keys.findKeyWithStoreAndVersions(db, 'key_sample'),
      insertKey: (db) =>
        keys.insertKey(db, {
          key_id: 'key_sample',
          store_id: 1,
          application: 'app',
          secret_hash: 'hash',
          scopes: 'read_blog',
          expires_at: null,
          revoked_at: null,
          read_per_minute: 600,
          write_per_minute: 120,
          concurrency: 8,
          created_at: NOW,
        }),
      revokeKey: (db) => keys.revokeKey(db, 'key_sample', NOW),
      'updateKey (two limits)': (db) => keys.updateKey(db, 'key_sample', { read_per_minute: 60, write_per_minute: 10 }),
      findKey: (db) => keys.findKey(db, 'key_sample'),
      listKeys: (db) => keys.listKeys(db, 1),
      'listExpiringKeys (of one store)': (db) => keys.listExpiringKeys(db, NOW, NOW + 30 * 86_400_000, 1),
      countExpiringKeys: (db) => keys.countExpiringKeys(db, NOW, NOW + 30 * 86_400_000),
    },
  },
  media: {
    source: 'src/modules/media/media-repository.ts',
    calls: {
      findLiveImageByContent: (db) => media.findLiveImageByContent(db, 1, SAMPLE_IMAGE.sha256),
      findLiveImage: (db) => media.findLiveImage(db, 1, SAMPLE_IMAGE.id),
      'listLiveImages (first page)': (db) => media.listLiveImages(db, 1, undefined, 21),
      'listLiveImages (after a cursor)': (db) =>
        media.listLiveImages(db, 1, { createdAt: NOW, id: SAMPLE_IMAGE.id }, 21),
      findPublicImage: (db) => media.findPublicImage(db, 'shop', SAMPLE_IMAGE.basename),
      insertImage: (db) => media.insertImage(db, SAMPLE_IMAGE),
      postsUsingImage: (db) => media.postsUsingImage(db, 1, SAMPLE_IMAGE.id, '/media/shop/sample.png', 20),
      markImageDeleted: (db) => media.markImageDeleted(db, SAMPLE_IMAGE.id, NOW),
      forgetOwedRemoval: (db) => media.forgetOwedRemoval(db, SAMPLE_IMAGE.id),
      restoreImage: (db) => media.restoreImage(db, 1, SAMPLE_IMAGE.id),
      findLiveImageId: (db) => media.findLiveImageId(db, 1, SAMPLE_IMAGE.basename),
      liveImagesAfter: (db) => media.liveImagesAfter(db, SAMPLE_IMAGE.id, 200),
      findVariantSource: (db) => media.findVariantSource(db, 'shop', SAMPLE_IMAGE.basename),
    },
  },
  posts: {
    source: 'src/modules/posts/post-repository.ts',
    calls: {
      findPost: (db) => posts.findPost(db, 1, 2),
      'listPosts (first page, then its categories)': (db) => posts.listPosts(db, FIRST_PAGE),
      'listPosts (every filter, after a cursor)': (db) =>
        posts.listPosts(db, {
          ...FIRST_PAGE,
          status: 'published',
          categoryId: 3,
          updatedSince: NOW,
          orderBy: 'published_at',
          after: { key: NOW, id: 9 },
        }),
      'listPosts (a search of one term)': (db) => posts.listPosts(db, { ...FIRST_PAGE, terms: ['lamp'] }),
      insertPost: (db) => posts.insertPost(db, NEW_POST),
      'replaceCategories (two categories)': (db) => posts.replaceCategories(db, 1, 2, [3, 4]),
      'addCategoryLinks (two categories)': (db) => posts.addCategoryLinks(db, 1, 2, [3, 4]),
      lockPost: (db) => posts.lockPost(db, 1, 2),
      setPublishedAt: (db) => posts.setPublishedAt(db, 1, 2, NOW, NOW),
      hasProductLinks: (db) => posts.hasProductLinks(db, 2),
      saveDeleteConfirmation: (db) =>
        posts.saveDeleteConfirmation(
          db,
          { tokenHash: 'hash', storeId: 1, postId: 2, keyId: 'key_sample', expiresAt: NOW + 300_000 },
          NOW,
        ),
      consumeDeleteConfirmation: (db) =>
        posts.consumeDeleteConfirmation(db, { tokenHash: 'hash', storeId: 1, postId: 2, keyId: 'key_sample' }, NOW),
      deletePostRows: (db) => posts.deletePostRows(db, 1, 2),
      'storeCategoryIds (two ids)': (db) => posts.storeCategoryIds(db, 1, [3, 4]),
      'updatePostRow (every field)': (db) =>
        posts.updatePostRow(db, 1, 2, {
          title: 'T',
          summary: null,
          body: { html: '<p>b</p>', warnings: '[]' },
          coverImageId: null,
          defaultCategoryId: null,
          now: NOW,
        }),
      'updatePostRow (title only)': (db) =>
        posts.updatePostRow(db, 1, 2, { title: 'T', coverImageId: null, defaultCategoryId: null, now: NOW }),
      addProductLink: (db) => posts.addProductLink(db, { storeId: 1, postId: 2, productId: 'sku-1', now: NOW }),
      removeProductLink: (db) => posts.removeProductLink(db, 2, 'sku-1'),
      productIdsOf: (db) => posts.productIdsOf(db, 2),
      dueSchedules: (db) => posts.dueSchedules(db, NOW, 100),
      takeSchedule: (db) => posts.takeSchedule(db, 2, NOW),
    },
  },
  audit: {
    source: 'src/modules/audit/audit-repository.ts',
    calls: {
      'listAuditEvents (first page)': (db) => audit.listAuditEvents(db, { storeId: 1, limit: 21 }),
      'listAuditEvents (every filter, after a cursor)': (db) =>
        audit.listAuditEvents(db, {
          storeId: 1,
          action: 'post.updated',
          resource_type: 'post',
          resource_id: '2',
          key_id: 'key_sample',
          since: NOW - 86_400_000,
          until: NOW,
          beforeId: 9,
          limit: 21,
        }),
    },
  },
  quotas: {
    source: 'src/modules/quotas/quota-repository.ts',
    calls: {
      dailyUsage: (db) => quotas.dailyUsage(db, 1, '2026-01-01'),
    },
  },
  stores: {
    source: 'src/modules/stores/store-repository.ts',
    calls: {
      insertStore: (db) =>
        stores.insertStore(db, {
          handle: 'shop',
          name: 'Shop',
          categories_enabled: 1,
          media_enabled: 1,
          certified: 1,
          writes_paused: 0,
          emoji_allowed: 1,
          webhooks_enabled: 1,
          ...STORE_DEFAULTS,
          storefront_base_url: null,
          created_at: NOW,
          updated_at: NOW,
        }),
      updateStore: (db) => stores.updateStore(db, 'shop', { name: 'Shop', updated_at: NOW }),
      failPendingDeliveries: (db) => stores.failPendingDeliveries(db, 1),
      findStoreByHandle: (db) => stores.findStoreByHandle(db, 'shop'),
      findStoreById: (db) => stores.findStoreById(db, 1),
      countStores: (db) => stores.countStores(db),
    },
  },
  webhooks: {
    source: 'src/modules/webhooks/webhook-repository.ts',
    calls: {
      listEndpoints: (db) => webhooks.listEndpoints(db, 1),
      findEndpoint: (db) => webhooks.findEndpoint(db, 1, SAMPLE_ENDPOINT.id),
      'findEndpoint (locked)': (db) => webhooks.findEndpoint(db, 1, SAMPLE_ENDPOINT.id, true),
      countEndpointsLocked: (db) => webhooks.countEndpointsLocked(db, 1),
      insertEndpoint: (db) => webhooks.insertEndpoint(db, SAMPLE_ENDPOINT),
      'updateEndpoint (of the store)': (db) =>
        webhooks.updateEndpoint(db, 1, SAMPLE_ENDPOINT.id, { url: SAMPLE_ENDPOINT.url, updated_at: NOW }),
      'updateEndpoint (of any store)': (db) =>
        webhooks.updateEndpoint(db, null, SAMPLE_ENDPOINT.id, { enabled: 0, updated_at: NOW }),
      deleteEndpoint: (db) => webhooks.deleteEndpoint(db, 1, SAMPLE_ENDPOINT.id),
      findStoreHandle: (db) => webhooks.findStoreHandle(db, 1),
      findDelivery: (db) => webhooks.findDelivery(db, 1, 'whd_sample', NOW),
      findEndpointDelivery: (db) => webhooks.findEndpointDelivery(db, 1, SAMPLE_ENDPOINT.id, 'whd_sample', NOW),
      'listDeliveries (first page)': (db) =>
        webhooks.listDeliveries(db, {
          storeId: 1,
          endpointId: SAMPLE_ENDPOINT.id,
          filters: {},
          after: null,
          limit: 21,
          now: NOW,
        }),
      'listDeliveries (every filter, after a cursor)': (db) =>
        webhooks.listDeliveries(db, {
          storeId: 1,
          endpointId: SAMPLE_ENDPOINT.id,
          filters: {
            status: 'failed',
            event_type: 'post.*',
            since: '2026-01-01T00:00:00Z',
            until: '2026-02-01T00:00:00Z',
          },
          after: { createdAt: NOW, id: 'whd_sample' },
          limit: 21,
          now: NOW,
        }),
      dueDeliveryStats: (db) => webhooks.dueDeliveryStats(db, NOW),
      closeCircuit: (db) => webhooks.closeCircuit(db, SAMPLE_ENDPOINT.id),
      countTimeout: (db) => webhooks.countTimeout(db, SAMPLE_ENDPOINT.id, 3, NOW + 300_000),
    },
  },
  origins: {
    source: 'src/modules/stores/origin-repository.ts',
    calls: {
      selectAllowedOrigins: (db) => origins.selectAllowedOrigins(db),
    },
  },
  'image-sizes': {
    source: 'src/modules/storefront/image-size-repository.ts',
    calls: {
      'imageSizes (two images)': (db) => imageSizes.imageSizes(db, 1, ['a.png', 'b.png']),
    },
  },
  publishing: {
    source: 'src/modules/storefront/publishing-repository.ts',
    calls: {
      'listFeedPosts (then their categories)': (db) => publishing.listFeedPosts(db, 1, NOW, 20),
      findCategory: (db) => publishing.findCategory(db, 1, 2),
      sitemapPosts: (db) => publishing.sitemapPosts(db, 1, NOW),
      sitemapCategories: (db) => publishing.sitemapCategories(db, 1, NOW),
      publicStoreHandles: (db) => publishing.publicStoreHandles(db, 1000),
      isVisiblePost: (db) => publishing.isVisiblePost(db, 1, 2, NOW),
    },
  },
  storefront: {
    source: 'src/modules/storefront/storefront-repository.ts',
    // findStoreByHandle reads the whole store row.
    row: SAMPLE_STORE_ROW,
    calls: {
      findStoreByHandle: (db) => storefront.findStoreByHandle(db, 'shop'),
      findAnyPost: (db) => storefront.findAnyPost(db, 1, 2),
      findVisiblePost: (db) => storefront.findVisiblePost(db, 1, 2, NOW),
      categoriesOf: (db) => storefront.categoriesOf(db, 1, 2),
      'listVisiblePosts (first page)': (db) => storefront.listVisiblePosts(db, 1, NOW, 21),
      'listVisiblePosts (of a category, after a cursor)': (db) =>
        storefront.listVisiblePosts(db, 1, NOW, 21, { publishedAt: NOW, id: 9 }, 3),
    },
  },
  'event-feed': {
    source: 'src/modules/events/event-feed.ts',
    row: {
      id: 'evt_sample',
      type: 'post.created',
      body: '{"type":"post.created","timestamp":"2023-11-14T22:13:20Z","data":{}}',
      sequence: 4,
      last_sequence: 5,
      purged_through: 1,
    },
    calls: {
      'EventFeed.get': (db) => new EventFeed(db, engineOfDb(db), 30).get(SAMPLE_STORE, 'evt_sample'),
      'EventFeed.list (first page)': (db) => new EventFeed(db, engineOfDb(db), 30).list(SAMPLE_STORE, {}),
      'EventFeed.list (of two types, after a cursor)': (db) =>
        new EventFeed(db, engineOfDb(db), 30).list(SAMPLE_STORE, { after: '3', types: 'post.created,category.*' }),
    },
  },
  'event-types': {
    source: 'src/modules/events/event-types.ts',
    calls: {
      // A condition only: delivery-enqueue.sql shows it in the statements that run.
      'subscribesSql (as the condition of a select of endpoints)': (db) =>
        db
          .selectFrom('webhook_endpoints')
          .select('id')
          .where(eventTypes.subscribesSql(engineOfDb(db), sql.ref('events'), 'post.created'))
          .execute(),
    },
  },
  idempotency: {
    source: 'src/modules/idempotency/idempotency-service.ts',
    // A record past retention, for the take-over.
    row: { id: 1, state: 'completed', request_hash: 'hash', created_at: 0, expires_at: 0 },
    calls: {
      storeResponse: (db) => storeResponse(db, { scope: SCOPE, statusCode: 201, body: '{}', location: '/v1/posts/2' }),
      'IdempotencyService.begin (a new record)': (db) =>
        new IdempotencyService(db, new ManualClock(NOW)).begin(SCOPE, 'hash'),
      'IdempotencyService.begin (the key taken by a record past retention)': (db) =>
        new IdempotencyService(db, new ManualClock(NOW), KEY_TAKEN(db)).begin(SCOPE, 'hash'),
      'IdempotencyService.release': (db) => new IdempotencyService(db, new ManualClock(NOW)).release(SCOPE),
      'IdempotencyService.purgeExpired': (db) => new IdempotencyService(db, new ManualClock(NOW)).purgeExpired(),
    },
  },
  'housekeeping-lease': {
    source: 'src/modules/housekeeping/housekeeping-lease.ts',
    // The lease is held: acquiring it goes on to take it over from an expired holder.
    changed: 0,
    calls: {
      'HousekeepingLease.acquire (held, then taken over if expired)': (db) => new HousekeepingLease(db).acquire(NOW),
      'HousekeepingLease.renew': (db) => new HousekeepingLease(db).renew(NOW),
      'HousekeepingLease.release': (db) => new HousekeepingLease(db).release(),
      'HousekeepingLease.mediaCursor': (db) => new HousekeepingLease(db).mediaCursor(),
      'HousekeepingLease.saveMediaCursor': (db) => new HousekeepingLease(db).saveMediaCursor('shop/a.png'),
    },
  },
  'media-cleanup': {
    source: 'src/modules/media/media-cleanup.ts',
    row: { image_id: SAMPLE_IMAGE.id, basename: SAMPLE_IMAGE.basename, width: 1, deleted_at: NOW, handle: 'shop' },
    calls: {
      'removeOwedFiles (one owed removal)': (db) => mediaCleanup.removeOwedFiles(db, ONE_OLD_FILE, NOW, 100),
      'sweepOrphanFiles (one old file)': (db) => mediaCleanup.sweepOrphanFiles(db, ONE_OLD_FILE, NOW, null, 100),
    },
  },
  versions: {
    source: 'src/cache/versions.ts',
    calls: {
      // On SQLite the versions are read in the process (PRAGMA data_version), not by a statement.
      'versionSource (PostgreSQL only; a read of one store)': async (db) =>
        isPostgres(db) ? versionSource({ engine: 'postgres', db } as DatabaseHandle).read(1) : null,
    },
  },
  'shared-versions': {
    source: 'src/cache/shared-versions.ts',
    row: { horizon: '100', identity: 'db', changed: null },
    calls: {
      'SharedVersions.horizonNow (PostgreSQL only)': (db) =>
        isPostgres(db) ? sharedVersions(db).horizonNow() : Promise.resolve(null),
      'SharedVersions.dropChangedSince (PostgreSQL only; every store)': (db) =>
        isPostgres(db) ? sharedVersions(db).dropChangedSince(null, 'unequal') : Promise.resolve(null),
      'SharedVersions.dropChangedSince (PostgreSQL only; changed since a horizon)': (db) =>
        isPostgres(db) ? sharedVersions(db).dropChangedSince('100', 'behind') : Promise.resolve(null),
    },
  },
  'view-counter': {
    source: 'src/modules/storefront/view-counter.ts',
    calls: {
      'ViewCounter.flush (one view of a post, two of another)': (db) => {
        const counter = new ViewCounter(db);
        counter.record(2);
        counter.record(3);
        counter.record(3);
        return counter.flush();
      },
    },
  },
  'delivery-recovery': {
    source: 'src/modules/webhooks/delivery-recovery.ts',
    row: {
      ...DELIVERY_ROW,
      events: '["*"]',
      enabled: 1,
      started_at: NOW,
      finished: 1,
      duration_ms: 12,
      response_status: 200,
      error: null,
      response_excerpt: 'ok',
      n: 1,
      first: 4,
      last: 4,
    },
    calls: {
      'DeliveryRecovery.get': (db) =>
        new DeliveryRecovery(db, engineOfDb(db), new ManualClock(NOW)).get(
          SAMPLE_STORE,
          SAMPLE_ENDPOINT.id,
          'whd_sample',
        ),
      'DeliveryRecovery.retry': (db) =>
        new DeliveryRecovery(db, engineOfDb(db), new ManualClock(NOW)).retry(
          SAMPLE_STORE,
          SAMPLE_ENDPOINT.id,
          'whd_sample',
        ),
      'DeliveryRecovery.replay (of a time range)': (db) =>
        new DeliveryRecovery(db, engineOfDb(db), new ManualClock(NOW)).replay(SAMPLE_STORE, SAMPLE_ENDPOINT.id, {
          since: '2023-11-14T00:00:00Z',
          until: '2023-11-15T00:00:00Z',
        }),
    },
  },
  'delivery-worker': {
    source: 'src/modules/webhooks/delivery-worker.ts',
    // A claimed delivery of an endpoint disabled meanwhile, so a failed attempt reaches every statement.
    row: {
      ...DELIVERY_ROW,
      status: 'pending',
      attempts: 0,
      url: SAMPLE_ENDPOINT.url,
      secret: SAMPLE_ENDPOINT.secret,
      previous_secret: null,
      previous_secret_until: null,
      body: '{}',
      handle: 'shop',
      sequence: 4,
      enabled: 0,
      webhooks_enabled: 1,
    },
    calls: {
      'WebhookWorker.claim': (db) => worker(db, { status: 200 }).claim(8),
      'WebhookWorker.pollOnce (one delivery, answered 200)': async (db) => {
        const w = worker(db, { status: 200 });
        await w.pollOnce();
        await w.idle();
      },
      'WebhookWorker.pollOnce (one delivery, answered 500)': async (db) => {
        const w = worker(db, { status: 500 });
        await w.pollOnce();
        await w.idle();
      },
      failWaitingDeliveries: (db) => failWaitingDeliveries(db, SAMPLE_ENDPOINT.id),
    },
  },
  'create-statement': {
    source: 'src/modules/posts/create-statement.ts',
    calls: {
      'runCreateStatement (PostgreSQL only; deliveries, no idempotent completion)': (db) =>
        isPostgres(db) ? createStatement.runCreateStatement(db, CREATE_WRITES, CREATED) : Promise.resolve(null),
    },
  },
  'duplicate-window': {
    source: 'src/modules/posts/duplicate-window.ts',
    calls: {
      claimFingerprint: (db) =>
        duplicateWindow.claimFingerprint(db, { storeId: 1, fingerprint: '0'.repeat(64), postId: 2, now: NOW }),
      assertNotDuplicate: (db) => duplicateWindow.assertNotDuplicate(db, 1, '0'.repeat(64), NOW, 2),
      findFingerprint: (db) => duplicateWindow.findFingerprint(db, 1, '0'.repeat(64)),
    },
  },
  'post-search': {
    source: 'src/modules/posts/post-search.ts',
    calls: {
      insertSearchText: (db) => postSearch.insertSearchText(db, 1, 2, 'lamp shade'),
      replaceSearchText: (db) => postSearch.replaceSearchText(db, 1, 2, 'lamp shade'),
      deleteSearchText: (db) => postSearch.deleteSearchText(db, 2),
    },
  },
  'schedule-scan': {
    source: 'src/modules/posts/schedule-scan.ts',
    // A due row whose post was unpublished meanwhile: taken, read, and no event (event-outbox.sql has recordEvent).
    row: { id: 1, post_id: 2, store_id: 1, due_at: NOW, published_at: null },
    calls: {
      'publishDueSchedules (one due post)': (db) =>
        scheduleScan.publishDueSchedules(db, NOW, 'https://blog.example.com'),
    },
  },
  'audit-recorder': {
    source: 'src/modules/audit/audit-recorder.ts',
    calls: {
      insertAudit: (db) =>
        auditRecorder.insertAudit(db, {
          storeId: 1,
          occurredAt: NOW,
          action: 'post.created',
          resourceType: 'post',
          resourceId: '2',
          keyId: null,
          application: null,
          requestId: null,
          changes: '[]',
        }),
      recordAudit: (db) =>
        auditRecorder.recordAudit(
          db,
          { storeId: 1, keyId: null, application: null, requestId: null },
          { action: 'post.updated', resourceType: 'post', resourceId: 2, changes: ['title'], at: NOW },
        ),
    },
  },
  'quota-service': {
    source: 'src/modules/quotas/quota-service.ts',
    calls: {
      takeQuotaUnit: (db) =>
        quotaService.takeQuotaUnit(db, { storeId: 1, kind: 'posts', day: '2026-01-01', limit: 200 }),
      consumeQuota: (db) => quotaService.consumeQuota(db, 1, 'images', 500, NOW),
    },
  },
  'delivery-enqueue': {
    source: 'src/modules/events/delivery-enqueue.ts',
    calls: {
      "enqueueDeliveries (to an event's subscribers)": (db) =>
        deliveryEnqueue.enqueueDeliveries(db, {
          storeId: 1,
          at: NOW,
          idPrefix: 'whd_sample',
          to: { kind: 'subscribers', eventId: EVENT.id, type: EVENT.type },
        }),
      'enqueueDeliveries (to one endpoint)': (db) =>
        deliveryEnqueue.enqueueDeliveries(db, {
          storeId: 1,
          at: NOW,
          idPrefix: 'whd_sample',
          to: { kind: 'endpoint', endpointId: SAMPLE_ENDPOINT.id, eventId: EVENT.id },
        }),
      'enqueueCount (a replay of the events after one)': (db) =>
        deliveryEnqueue.enqueueCount(db, {
          storeId: 1,
          at: NOW,
          idPrefix: 'whd_sample',
          to: { kind: 'replay', endpointId: SAMPLE_ENDPOINT.id, events: sql`ev.seq > ${5}` },
        }),
    },
  },
  'delivery-queue': {
    source: 'src/modules/events/delivery-queue.ts',
    calls: {
      releaseHeld: (db) => deliveryQueue.releaseHeld(db, NOW),
    },
  },
  'event-outbox': {
    source: 'src/modules/events/event-outbox.ts',
    calls: {
      'writeEvent (with deliveries)': (db) => eventOutbox.writeEvent(db, EVENT, SUBSCRIBERS),
      recordEvent: (db) => eventOutbox.recordEvent(db, SAMPLE_STORE, 'post.updated', NOW, () => ({ id: 2 })),
      withdrawDeliveries: (db) => eventOutbox.withdrawDeliveries(db, EVENT.id),
      insertEndpointEvent: (db) =>
        eventOutbox.insertEndpointEvent(db, SAMPLE_STORE, 'webhook.test', NOW, {}, SAMPLE_ENDPOINT.id),
      'setPublishSchedule (a future time)': (db) => eventOutbox.setPublishSchedule(db, 1, 2, NOW + 60_000, NOW),
      'setPublishSchedule (now)': (db) => eventOutbox.setPublishSchedule(db, 1, 2, NOW, NOW),
    },
  },
  'event-retention': {
    source: 'src/modules/events/event-retention.ts',
    calls: {
      advanceFeedHorizons: (db) => eventRetention.advanceFeedHorizons(db, NOW),
      deleteExpiredEvents: (db) => eventRetention.deleteExpiredEvents(db, NOW, 500),
    },
  },
  'attempt-log': {
    source: 'src/modules/webhooks/attempt-log.ts',
    calls: {
      startAttempt: (db) => attemptLog.startAttempt(db, 'whd_sample', 'lease', NOW),
      finishAttempt: (db) => attemptLog.finishAttempt(db, 'wha_sample', { status: 200, excerpt: 'ok' }, 12),
    },
  },
  'delivery-claim': {
    source: 'src/modules/webhooks/delivery-claim.ts',
    calls: {
      claimFairly: (db) =>
        deliveryClaim.claimFairly(db, isPostgres(db) ? 'postgres' : 'sqlite', {
          now: NOW,
          limit: 8,
          token: 'lease',
          leaseUntil: NOW + 30_000,
          after: null,
        }),
    },
  },
  'expired-rows': {
    source: 'src/modules/housekeeping/expired-rows.ts',
    calls: {
      expiredIdempotencyRecords: (db) => expiredRows.expiredIdempotencyRecords(db, NOW, 500),
      expiredContentFingerprints: (db) => expiredRows.expiredContentFingerprints(db, NOW, 500),
      expiredDeleteTokens: (db) => expiredRows.expiredDeleteTokens(db, NOW, 500),
      expiredWebhookDeliveries: (db) => expiredRows.expiredWebhookDeliveries(db, NOW, 500),
      expiredWebhookEvents: (db) => expiredRows.expiredWebhookEvents((now) => now - 86_400_000)(db, NOW, 500),
    },
  },
};

function sharedVersions(db: Db): SharedVersions {
  return new SharedVersions(NO_REDIS, db, 'blog:', 'secret', 'db', () => undefined);
}

/** A Kysely of `engine` that sends nothing and keeps the SQL of every statement. */
function recordingDb(
  engine: Engine,
  row: Record<string, unknown> = { id: 1 },
  changed = 1,
): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      statements.push(query.sql);
      return { rows: [row as R], numAffectedRows: BigInt(changed) };
    },
    streamQuery() {
      throw new Error('not recorded');
    },
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  const postgres = engine === 'postgres';
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => driver,
      createIntrospector: (k) => (postgres ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
  return { db, statements };
}

async function statementsOf(
  call: Call,
  engine: Engine,
  row?: Record<string, unknown>,
  changed?: number,
): Promise<string[]> {
  const { db, statements } = recordingDb(engine, row, changed);
  await call(db);
  return statements;
}

/** The same text once the placeholders are alike (PostgreSQL numbers them, SQLite does not). */
const samePlaceholders = (sql: string) => sql.replace(/\$\d+/g, '?');

/** The contents of docs/sql/<module>.sql. */
export async function repositorySql(module: string): Promise<string> {
  const { source, calls, row, changed } = REPOSITORIES[module];
  const lines = [
    `-- The statements of ${source}, in order, with sample arguments.`,
    '-- Generated by scripts/repository-sql.ts; do not edit: run `npx tsx scripts/repository-sql.ts` after changing a query.',
    '',
  ];
  for (const [name, call] of Object.entries(calls)) {
    const sqlite = await statementsOf(call, 'sqlite', row, changed);
    const postgres = await statementsOf(call, 'postgres', row, changed);
    lines.push(`-- ${name}`);
    if (sqlite.map(samePlaceholders).join('\n') === postgres.map(samePlaceholders).join('\n')) {
      lines.push(...postgres.map((s) => `${s};`));
    } else {
      lines.push('-- on PostgreSQL', ...postgres.map((s) => `${s};`), '-- on SQLite', ...sqlite.map((s) => `${s};`));
    }
    lines.push('');
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  mkdirSync(SQL_DOCS_DIR, { recursive: true });
  for (const module of Object.keys(REPOSITORIES)) {
    const file = resolve(SQL_DOCS_DIR, `${module}.sql`);
    writeFileSync(file, await repositorySql(module));
    console.log(`wrote ${file}`);
  }
}
