// Reads for feeds, sitemaps, category pages and view beacons. The visibility rule is the one of
// storefront-repository.ts: published means published_at <= now, scoped to the store.
import type { Db } from '../../db/database.js';
import {
  CATEGORY_LABEL_COLUMNS,
  postCategories,
  postsWithCover,
  PUBLISH_ORDER,
  type CategoryLabel,
} from './storefront-repository.js';

export interface FeedPost {
  id: number;
  title: string;
  summary: string | null;
  bodyHtml: string;
  publishedAt: number;
  updatedAt: number;
  coverBasename: string | null;
  categories: CategoryLabel[];
}

/** The newest `limit` published posts with their bodies and categories (categories in id order). */
export async function listFeedPosts(db: Db, storeId: number, now: number, limit: number): Promise<FeedPost[]> {
  const rows = await postsWithCover(db, storeId)
    .select('images.basename')
    .where('posts.published_at', '<=', now)
    .orderBy(PUBLISH_ORDER, 'desc')
    .orderBy('posts.id', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const links = await postCategories(db)
    .select(['post_categories.post_id', ...CATEGORY_LABEL_COLUMNS])
    .where('post_categories.store_id', '=', storeId)
    .where(
      'post_categories.post_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('categories.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    summary: r.summary,
    bodyHtml: r.body_html,
    publishedAt: r.published_at as number,
    updatedAt: r.updated_at,
    coverBasename: r.basename,
    categories: links
      .filter((l) => l.post_id === r.id)
      .map((l) => ({ id: l.id, name: l.name, updatedAt: l.updated_at })),
  }));
}

export async function findCategory(db: Db, storeId: number, id: number): Promise<CategoryLabel | null> {
  const row = await db
    .selectFrom('categories')
    .select(['id', 'name', 'updated_at'])
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, updatedAt: row.updated_at } : null;
}

/** One address of a sitemap: what it is and when it last changed. */
export interface SitemapRow {
  id: number;
  lastModified: number;
}

/** Every published post (id order) with the later of its update and publish times. */
export async function sitemapPosts(db: Db, storeId: number, now: number): Promise<SitemapRow[]> {
  const rows = await db
    .selectFrom('posts')
    .select(['id', 'updated_at', 'published_at'])
    .where('store_id', '=', storeId)
    .where('published_at', '<=', now)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, lastModified: Math.max(r.updated_at, r.published_at as number) }));
}

/** Every category (id order); it changed when it was edited or one of its published posts did. */
export async function sitemapCategories(db: Db, storeId: number, now: number): Promise<SitemapRow[]> {
  const categories = await db
    .selectFrom('categories')
    .select(['id', 'updated_at'])
    .where('store_id', '=', storeId)
    .orderBy('id')
    .execute();
  const newest = await db
    .selectFrom('post_categories')
    .innerJoin('posts', 'posts.id', 'post_categories.post_id')
    .select(['post_categories.category_id'])
    .select((eb) => [eb.fn.max('posts.updated_at').as('updated'), eb.fn.max('posts.published_at').as('published')])
    .where('post_categories.store_id', '=', storeId)
    .where('posts.published_at', '<=', now)
    .groupBy('post_categories.category_id')
    .execute();
  const byCategory = new Map(
    newest.map((n) => [n.category_id, Math.max(Number(n.updated ?? 0), Number(n.published ?? 0))]),
  );
  return categories.map((c) => ({ id: c.id, lastModified: Math.max(c.updated_at, byCategory.get(c.id) ?? 0) }));
}

/** Handles of the stores whose pages are public (certified), in handle order, at most `limit`. */
export async function publicStoreHandles(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('stores')
    .select('handle')
    .where('certified', '=', 1)
    .orderBy('handle')
    .limit(limit)
    .execute();
  return rows.map((r) => r.handle);
}

/** True when the post is published in that store now (a beacon may count a view of it). */
export async function isVisiblePost(db: Db, storeId: number, id: number, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('posts')
    .select('id')
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .where('published_at', '<=', now)
    .executeTakeFirst();
  return row !== undefined;
}
