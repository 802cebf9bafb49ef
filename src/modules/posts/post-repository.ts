// Plain data access for posts; takes `db` or a transaction. No rules here.
// The per-request reads are query templates, compiled once per shape (see queryTemplate and
// docs/performance.md): one post with its categories in one statement; a page of the list and
// then its categories (one statement with a derived table measured slower on SQLite).
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { queryTemplate } from '../../db/query-template.js';
import type { PostsTable } from '../../db/schema.js';

/** A post as stored, with its cover's file name and its categories. */
export type PostRecord = Selectable<PostsTable> & { cover_basename: string | null; category_ids: number[] };

/** A post as listed: every field but the body and its warnings (a page never needs them). */
export type PostListRecord = Omit<PostRecord, 'body_html' | 'warnings'>;

const LIST_COLUMNS = [
  'posts.id',
  'posts.store_id',
  'posts.title',
  'posts.summary',
  'posts.cover_image_id',
  'posts.default_category_id',
  'posts.published_at',
  'posts.view_count',
  'posts.created_at',
  'posts.updated_at',
] as const;

function fromPosts(db: Db) {
  return db.selectFrom('posts').leftJoin('images', 'images.id', 'posts.cover_image_id').select('images.basename as cover_basename');
}

/** A post with one row per category link (ordered), folded into `category_ids`. */
const postById = queryTemplate((db, $: { storeId: number; id: number }) =>
  fromPosts(db)
    .leftJoin('post_categories', 'post_categories.post_id', 'posts.id')
    .select(LIST_COLUMNS)
    .select(['posts.body_html', 'posts.warnings', 'post_categories.category_id as link_category_id'])
    .where('posts.store_id', '=', $.storeId)
    .where('posts.id', '=', $.id)
    .orderBy('post_categories.category_id'),
);

type Folded<R> = Omit<R, 'link_category_id'> & { category_ids: number[] };

/** Rows of posts, each repeated once per category link (null when none), in order → posts. */
function foldCategories<R extends { id: number; link_category_id: number | null }>(rows: R[]): Array<Folded<R>> {
  const posts: Array<Folded<R>> = [];
  let current: Folded<R> | undefined;
  for (const row of rows) {
    if (current?.id !== row.id) {
      const { link_category_id: _, ...post } = row;
      current = { ...post, category_ids: [] };
      posts.push(current);
    }
    if (row.link_category_id !== null) current.category_ids.push(row.link_category_id);
  }
  return posts;
}

/** Category links of `shape` posts (one template per page size). */
const categoryLinks = queryTemplate((db, $: { postIds: number[] }, shape) =>
  db
    .selectFrom('post_categories')
    .select(['post_id', 'category_id'])
    .where('post_id', 'in', Array.from({ length: shape }, (_, i) => $.postIds[i]))
    .orderBy('category_id'),
);

async function attachCategories<R extends { id: number }>(db: Db, rows: R[]): Promise<Array<R & { category_ids: number[] }>> {
  if (rows.length === 0) return [];
  const links = await categoryLinks(db, { postIds: rows.map((r) => r.id) }, rows.length);
  const byPost = new Map<number, number[]>();
  for (const link of links) {
    const list = byPost.get(link.post_id);
    if (list) list.push(link.category_id);
    else byPost.set(link.post_id, [link.category_id]);
  }
  return rows.map((r) => ({ ...r, category_ids: byPost.get(r.id) ?? [] }));
}

export async function findPost(db: Db, storeId: number, id: number): Promise<PostRecord | null> {
  const [post] = foldCategories(await postById(db, { storeId, id }));
  return post ?? null;
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

const STATUS_SHAPES = [undefined, 'draft', 'scheduled', 'published'] as const;

/** shape = status (0–3) + 4 × has category + 8 × has cursor: one compiled query per combination. */
const listPage = queryTemplate((db, $: Omit<ListFilter, 'status' | 'after'> & { afterCreatedAt?: number; afterId?: number }, shape) => {
  const status = STATUS_SHAPES[shape & 3];
  let q = fromPosts(db).select(LIST_COLUMNS).where('posts.store_id', '=', $.storeId);
  if (status === 'draft') q = q.where('posts.published_at', 'is', null);
  if (status === 'scheduled') q = q.where('posts.published_at', '>', $.now);
  if (status === 'published') q = q.where('posts.published_at', '<=', $.now);
  if (shape & 4) {
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('post_categories').select('post_id').whereRef('post_categories.post_id', '=', 'posts.id').where('post_categories.category_id', '=', $.categoryId!)),
    );
  }
  if (shape & 8) {
    // A row-value comparison, so the index range starts at the cursor (an OR of the two
    // conditions made every page scan from the newest post).
    q = q.where((eb) => eb(eb.refTuple('posts.created_at', 'posts.id'), '<', eb.tuple($.afterCreatedAt!, $.afterId!)));
  }
  return q.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit($.limit);
});

export async function listPosts(db: Db, filter: ListFilter): Promise<PostListRecord[]> {
  const shape = STATUS_SHAPES.indexOf(filter.status) + (filter.categoryId !== undefined ? 4 : 0) + (filter.after ? 8 : 0);
  const rows = await listPage(db, { storeId: filter.storeId, now: filter.now, categoryId: filter.categoryId, afterCreatedAt: filter.after?.createdAt, afterId: filter.after?.id, limit: filter.limit }, shape);
  return attachCategories(db, rows);
}

export interface NewPost {
  storeId: number;
  title: string;
  summary: string | null;
  bodyHtml: string;
  warnings: string;
  coverImageId: string | null;
  defaultCategoryId: number | null;
  now: number;
}

/** A new post is always a draft with no views. */
const insertPostRow = queryTemplate((db, $: NewPost) =>
  db
    .insertInto('posts')
    .values({
      store_id: $.storeId,
      title: $.title,
      summary: $.summary,
      body_html: $.bodyHtml,
      warnings: $.warnings,
      cover_image_id: $.coverImageId,
      default_category_id: $.defaultCategoryId,
      published_at: null,
      view_count: 0,
      created_at: $.now,
      updated_at: $.now,
    })
    .returning('id'),
);

/** Inserts a post and returns its row as stored, without reading it back. */
export async function insertPost(trx: Db, post: NewPost): Promise<Selectable<PostsTable>> {
  const [{ id }] = await insertPostRow(trx, post);
  return postRow(post, id);
}

/** The row a new post is stored as, under `id`. */
export function postRow(post: NewPost, id: number): Selectable<PostsTable> {
  return {
    id,
    store_id: post.storeId,
    title: post.title,
    summary: post.summary,
    body_html: post.bodyHtml,
    warnings: post.warnings,
    cover_image_id: post.coverImageId,
    default_category_id: post.defaultCategoryId,
    published_at: null,
    view_count: 0,
    created_at: post.now,
    updated_at: post.now,
  };
}

const deleteCategoryLinks = queryTemplate((db, $: { postId: number }) => db.deleteFrom('post_categories').where('post_id', '=', $.postId));

export async function replaceCategories(trx: Db, storeId: number, postId: number, categoryIds: number[]): Promise<void> {
  await deleteCategoryLinks(trx, { postId });
  await addCategoryLinks(trx, storeId, postId, categoryIds);
}

/** Links a post that has none yet (a new one) to its categories. */
export async function addCategoryLinks(trx: Db, storeId: number, postId: number, categoryIds: number[]): Promise<void> {
  if (categoryIds.length === 0) return;
  await trx.insertInto('post_categories').values(categoryIds.map((category_id) => ({ post_id: postId, category_id, store_id: storeId }))).execute();
}

/**
 * Takes the post's row lock for the rest of the transaction, the same way on both engines: an
 * update that changes nothing (PostgreSQL locks the row and later statements see the newest
 * committed row; SQLite holds the database's write lock). False when the post does not exist.
 */
export async function lockPost(trx: Db, storeId: number, id: number): Promise<boolean> {
  const result = await trx.updateTable('posts').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).where('store_id', '=', storeId).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
