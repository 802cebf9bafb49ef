// The SQL each repository function sends, on both engines, committed as docs/sql/<module>.sql so
// a review of a query change shows the statements that will run. Each function below is called
// with sample arguments on a Kysely whose driver only records the compiled statements (every
// statement "returns" one empty row and one changed row, so a function reaches all of its
// statements); nothing touches a database.
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
import type { Database } from '../src/db/schema.js';
import * as categories from '../src/modules/categories/category-repository.js';
import * as keys from '../src/modules/keys/key-repository.js';
import * as media from '../src/modules/media/media-repository.js';
import * as posts from '../src/modules/posts/post-repository.js';
import * as quotas from '../src/modules/quotas/quota-repository.js';
import * as stores from '../src/modules/stores/store-repository.js';
import { STORE_DEFAULTS } from '../src/modules/stores/store-settings.js';
import * as webhooks from '../src/modules/webhooks/webhook-repository.js';

export const SQL_DOCS_DIR = resolve(import.meta.dirname, '../docs/sql');

type Call = (db: Db) => Promise<unknown>;

interface RepositorySql {
  source: string;
  /** Each function (or variant of one) by the name it is listed under, in the file's order. */
  calls: Record<string, Call>;
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
    },
  },
};

/** A Kysely of `engine` that sends nothing and keeps the SQL of every statement. */
function recordingDb(engine: Engine): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      statements.push(query.sql);
      return { rows: [{ id: 1 } as R], numAffectedRows: 1n };
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

async function statementsOf(call: Call, engine: Engine): Promise<string[]> {
  const { db, statements } = recordingDb(engine);
  await call(db);
  return statements;
}

/** The same text once the placeholders are alike (PostgreSQL numbers them, SQLite does not). */
const samePlaceholders = (sql: string) => sql.replace(/\$\d+/g, '?');

/** The contents of docs/sql/<module>.sql. */
export async function repositorySql(module: string): Promise<string> {
  const { source, calls } = REPOSITORIES[module];
  const lines = [
    `-- The statements of ${source}, in order, with sample arguments.`,
    '-- Generated by scripts/repository-sql.ts; do not edit: run `npx tsx scripts/repository-sql.ts` after changing a query.',
    '',
  ];
  for (const [name, call] of Object.entries(calls)) {
    const sqlite = await statementsOf(call, 'sqlite');
    const postgres = await statementsOf(call, 'postgres');
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
