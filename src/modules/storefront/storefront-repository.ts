// Reads for the public pages. Visibility is decided in SQL from the clock, exactly as
// deriveStatus does: published means published_at <= now; drafts (null) and scheduled
// posts (future) never match, and every query is scoped to the store.
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { HANDLE_PATTERN, storeFromRow, type Store } from '../stores/index.js';

export interface StorefrontStore {
  store: Store;
  updatedAt: number;
}

export interface VisiblePost {
  id: number;
  title: string;
  summary: string | null;
  bodyHtml: string;
  publishedAt: number;
  updatedAt: number;
  defaultCategoryId: number | null;
  cover: { basename: string; width: number; height: number } | null;
}

/** A post as a preview shows it: a draft has no publish time. */
export type PreviewPost = Omit<VisiblePost, 'publishedAt'> & { publishedAt: number | null };

export interface CategoryLabel {
  id: number;
  name: string;
  updatedAt: number;
}

export interface IndexEntry {
  id: number;
  title: string;
  summary: string | null;
  publishedAt: number;
  updatedAt: number;
}

export async function findStoreByHandle(db: Db, handle: string): Promise<StorefrontStore | null> {
  if (!HANDLE_PATTERN.test(handle)) return null;
  // A store that has not finished onboarding shows nothing publicly, as its API reads are refused too.
  const row = await db
    .selectFrom('stores')
    .selectAll()
    .where('handle', '=', handle)
    .where('certified', '=', 1)
    .executeTakeFirst();
  return row ? { store: storeFromRow(row), updatedAt: row.updated_at } : null;
}

/**
 * The posts of a store with the columns every page shows, joined to their cover when it is not
 * deleted (the images columns are null otherwise); the caller adds the cover columns it needs.
 */
export function postsWithCover(db: Db, storeId: number) {
  return db
    .selectFrom('posts')
    .leftJoin('images', (join) =>
      join.onRef('images.id', '=', 'posts.cover_image_id').on('images.deleted_at', 'is', null),
    )
    .select(['posts.id', 'posts.title', 'posts.summary', 'posts.body_html', 'posts.published_at', 'posts.updated_at'])
    .where('posts.store_id', '=', storeId);
}

/** A post of this store whatever its status (for a preview link), or null when there is none. */
export async function findAnyPost(db: Db, storeId: number, id: number): Promise<PreviewPost | null> {
  return findPost(db, storeId, id, null);
}

export async function findVisiblePost(db: Db, storeId: number, id: number, now: number): Promise<VisiblePost | null> {
  return (await findPost(db, storeId, id, now)) as VisiblePost | null;
}

/** `visibleAt`: only a post published at or before this time; null: any post. */
async function findPost(db: Db, storeId: number, id: number, visibleAt: number | null): Promise<PreviewPost | null> {
  let q = postsWithCover(db, storeId)
    .select(['posts.default_category_id', 'images.basename', 'images.width', 'images.height'])
    .where('posts.id', '=', id);
  if (visibleAt !== null) q = q.where('posts.published_at', '<=', visibleAt);
  const row = await q.executeTakeFirst();
  if (!row || (visibleAt !== null && row.published_at === null)) return null;
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    bodyHtml: row.body_html,
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
    defaultCategoryId: row.default_category_id,
    cover: row.basename ? { basename: row.basename, width: row.width ?? 0, height: row.height ?? 0 } : null,
  };
}

/** The columns of a category's label (CategoryLabel). */
export const CATEGORY_LABEL_COLUMNS = ['categories.id', 'categories.name', 'categories.updated_at'] as const;

/** Category links of posts joined to their categories; the caller picks the columns and scopes them. */
export function postCategories(db: Db) {
  return db.selectFrom('post_categories').innerJoin('categories', 'categories.id', 'post_categories.category_id');
}

export async function categoriesOf(db: Db, storeId: number, postId: number): Promise<CategoryLabel[]> {
  const rows = await postCategories(db)
    .select(CATEGORY_LABEL_COLUMNS)
    .where('post_categories.post_id', '=', postId)
    .where('categories.store_id', '=', storeId)
    .orderBy('categories.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, updatedAt: r.updated_at }));
}

/**
 * A post's place in publish order, written as the index posts_store_published holds it
 * (migration 0009): ordering by this walks the index from the newest post and stops after a
 * page, where ordering by published_at itself read and sorted every post of the store.
 */
export const PUBLISH_ORDER = sql<number>`COALESCE(posts.published_at, -1)`;

/** Published posts (of one category when given), newest publish time first (id breaks ties), after a keyset position. */
export async function listVisiblePosts(
  db: Db,
  storeId: number,
  now: number,
  limit: number,
  before?: { publishedAt: number; id: number },
  categoryId?: number,
): Promise<IndexEntry[]> {
  let q = db
    .selectFrom('posts')
    .select(['id', 'title', 'summary', 'published_at', 'updated_at'])
    .where('store_id', '=', storeId)
    .where('published_at', '<=', now);
  if (categoryId !== undefined)
    q = q.where('id', 'in', (eb) =>
      eb
        .selectFrom('post_categories')
        .select('post_id')
        .where('category_id', '=', categoryId)
        .where('store_id', '=', storeId),
    );
  // A row-value comparison, so the index range starts at the position.
  if (before) q = q.where(sql<SqlBool>`(${PUBLISH_ORDER}, posts.id) < (${before.publishedAt}, ${before.id})`);
  const rows = await q.orderBy(PUBLISH_ORDER, 'desc').orderBy('posts.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    summary: r.summary,
    publishedAt: r.published_at as number,
    updatedAt: r.updated_at,
  }));
}
