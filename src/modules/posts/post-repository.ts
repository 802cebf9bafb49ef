// Plain data access for posts; takes `db` or a transaction. No rules here.
import type { Db } from '../../db/database.js';

export interface PostRecord {
  id: number;
  store_id: number;
  title: string;
  summary: string | null;
  body_html: string;
  warnings: string;
  cover_image_id: string | null;
  default_category_id: number | null;
  published_at: number | null;
  view_count: number;
  created_at: number;
  updated_at: number;
  cover_basename: string | null;
  category_ids: number[];
}

function selectPosts(db: Db) {
  return db
    .selectFrom('posts')
    .leftJoin('images', 'images.id', 'posts.cover_image_id')
    .selectAll('posts')
    .select('images.basename as cover_basename');
}

async function attachCategories(db: Db, rows: Array<Omit<PostRecord, 'category_ids'>>): Promise<PostRecord[]> {
  if (rows.length === 0) return [];
  const links = await db
    .selectFrom('post_categories')
    .select(['post_id', 'category_id'])
    .where('post_id', 'in', rows.map((r) => r.id))
    .orderBy('category_id')
    .execute();
  const byPost = new Map<number, number[]>();
  for (const link of links) byPost.set(link.post_id, [...(byPost.get(link.post_id) ?? []), link.category_id]);
  return rows.map((r) => ({ ...r, category_ids: byPost.get(r.id) ?? [] }));
}

export async function findPost(db: Db, storeId: number, id: number): Promise<PostRecord | null> {
  const row = await selectPosts(db).where('posts.store_id', '=', storeId).where('posts.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const [post] = await attachCategories(db, [row]);
  return post;
}

export interface ListFilter {
  storeId: number;
  status?: 'draft' | 'scheduled' | 'published';
  categoryId?: number;
  now: number;
  /** Continue after this (created_at, id) position, newest first. */
  after?: { createdAt: number; id: number };
  limit: number;
}

export async function listPosts(db: Db, filter: ListFilter): Promise<PostRecord[]> {
  let q = selectPosts(db).where('posts.store_id', '=', filter.storeId);
  if (filter.status === 'draft') q = q.where('posts.published_at', 'is', null);
  if (filter.status === 'scheduled') q = q.where('posts.published_at', '>', filter.now);
  if (filter.status === 'published') q = q.where('posts.published_at', '<=', filter.now);
  if (filter.categoryId !== undefined) {
    const categoryId = filter.categoryId;
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('post_categories').select('post_id').whereRef('post_categories.post_id', '=', 'posts.id').where('post_categories.category_id', '=', categoryId)),
    );
  }
  if (filter.after) {
    const { createdAt, id } = filter.after;
    q = q.where((eb) => eb.or([eb('posts.created_at', '<', createdAt), eb.and([eb('posts.created_at', '=', createdAt), eb('posts.id', '<', id)])]));
  }
  const rows = await q.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit(filter.limit).execute();
  return attachCategories(db, rows);
}

export async function replaceCategories(trx: Db, storeId: number, postId: number, categoryIds: number[]): Promise<void> {
  await trx.deleteFrom('post_categories').where('post_id', '=', postId).execute();
  if (categoryIds.length > 0) {
    await trx.insertInto('post_categories').values(categoryIds.map((category_id) => ({ post_id: postId, category_id, store_id: storeId }))).execute();
  }
}
