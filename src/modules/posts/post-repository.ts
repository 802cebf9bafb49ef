// Plain data access for posts; takes `db` or a transaction. No rules here.
// The per-request reads are query templates, compiled once per shape (see queryTemplate and
// docs/performance.md): one post with its categories in one statement; a page of the list and
// then its categories (one statement with a derived table measured slower on SQLite).
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { queryTemplate } from '../../db/query-template.js';
import type { PostsTable } from '../../db/schema.js';
import { isPostgres } from '../../db/engine-of.js';
import { deleteSearchText, matchesTerms } from './post-search.js';

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
  return db
    .selectFrom('posts')
    .leftJoin('images', 'images.id', 'posts.cover_image_id')
    .select('images.basename as cover_basename');
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

/** Category links of `postCount` posts (one template per page size). */
const categoryLinks = queryTemplate((db, $: { postIds: number[] }, postCount) =>
  db
    .selectFrom('post_categories')
    .select(['post_id', 'category_id'])
    .where(
      'post_id',
      'in',
      Array.from({ length: postCount }, (_, i) => $.postIds[i]),
    )
    .orderBy('category_id'),
);

async function attachCategories<R extends { id: number }>(
  db: Db,
  rows: R[],
): Promise<Array<R & { category_ids: number[] }>> {
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

/** Sets (null: clears) the post's publish time; the post's row must exist (see lockPost). */
export async function setPublishedAt(
  trx: Db,
  storeId: number,
  id: number,
  publishedAt: number | null,
  now: number,
): Promise<void> {
  await trx
    .updateTable('posts')
    .set({ published_at: publishedAt, updated_at: now })
    .where('id', '=', id)
    .where('store_id', '=', storeId)
    .execute();
}

/** Whether a product of the shop links to the post. */
export async function hasProductLinks(db: Db, postId: number): Promise<boolean> {
  return (
    (await db
      .selectFrom('post_product_links')
      .select('product_id')
      .where('post_id', '=', postId)
      .executeTakeFirst()) !== undefined
  );
}

export interface DeleteConfirmation {
  tokenHash: string;
  storeId: number;
  postId: number;
  keyId: string;
  expiresAt: number;
}

/** Stores a delete confirmation, dropping every expired one first (they are only ever read unexpired). */
export async function saveDeleteConfirmation(db: Db, confirmation: DeleteConfirmation, now: number): Promise<void> {
  await db.deleteFrom('delete_confirmations').where('expires_at', '<=', now).execute();
  await db
    .insertInto('delete_confirmations')
    .values({
      token_hash: confirmation.tokenHash,
      store_id: confirmation.storeId,
      post_id: confirmation.postId,
      key_id: confirmation.keyId,
      expires_at: confirmation.expiresAt,
    })
    .execute();
}

/** Deletes the confirmation if it exists for this post and key and is unexpired at `now`; whether it did. */
export async function consumeDeleteConfirmation(
  trx: Db,
  confirmation: Omit<DeleteConfirmation, 'expiresAt'>,
  now: number,
): Promise<boolean> {
  const consumed = await trx
    .deleteFrom('delete_confirmations')
    .where('token_hash', '=', confirmation.tokenHash)
    .where('store_id', '=', confirmation.storeId)
    .where('post_id', '=', confirmation.postId)
    .where('key_id', '=', confirmation.keyId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(consumed.numDeletedRows) === 1;
}

/** Deletes the post with its category links, search text, fingerprints and open delete confirmations. */
export async function deletePostRows(trx: Db, storeId: number, id: number): Promise<void> {
  await trx.deleteFrom('post_categories').where('post_id', '=', id).execute();
  await deleteSearchText(trx, id);
  await trx.deleteFrom('content_fingerprints').where('store_id', '=', storeId).where('post_id', '=', id).execute();
  await trx.deleteFrom('delete_confirmations').where('post_id', '=', id).execute();
  await trx.deleteFrom('posts').where('id', '=', id).where('store_id', '=', storeId).execute();
}

export type ListOrder = 'created_at' | 'published_at' | 'updated_at';

export interface ListFilter {
  storeId: number;
  status?: 'draft' | 'scheduled' | 'published';
  categoryId?: number;
  /** Search terms (see post-search.ts): every one must be contained. */
  terms?: string[];
  /** Only posts updated at or after this time (epoch ms). */
  updatedSince?: number;
  orderBy: ListOrder;
  direction: 'asc' | 'desc';
  now: number;
  /** Continue after this (sort key, id) position, in the list's order (see sortKeyOf). */
  after?: { key: number; id: number };
  limit: number;
}

/**
 * Drafts have no publish time and come last in both directions of order_by=published_at: the
 * sort key stands in a number below every time (descending) or above every time (ascending),
 * so the keyset comparison stays one row-value comparison on both engines (which order NULLs
 * differently). The descending form has an index (migration 0009-post-search).
 */
const DRAFTS_LAST = { desc: -1, asc: Number.MAX_SAFE_INTEGER } as const;

/** The value a post sorts on, as the cursor carries it. */
export function sortKeyOf(
  post: { created_at: number; updated_at: number; published_at: number | null },
  orderBy: ListOrder,
  direction: 'asc' | 'desc',
): number {
  if (orderBy === 'published_at') return post.published_at ?? DRAFTS_LAST[direction];
  return orderBy === 'created_at' ? post.created_at : post.updated_at;
}

/** Arguments of the list query: placeholders in a compiled template, values in a search. */
interface ListArgs {
  store: number;
  now: number;
  category: number | undefined;
  afterKey: number | undefined;
  afterId: number | undefined;
  limit: number;
  updatedSince: number | undefined;
}
const STATUS_SHAPES = [undefined, 'draft', 'scheduled', 'published'] as const;
const ORDERS: ListOrder[] = ['created_at', 'published_at', 'updated_at'];

interface ListShape {
  status: (typeof STATUS_SHAPES)[number];
  category: boolean;
  cursor: boolean;
  since: boolean;
  orderBy: ListOrder;
  direction: 'asc' | 'desc';
}

/** shape bits: status (0–3) + 4 × category + 8 × cursor + 16 × since + 32 × order (0–2) + 128 × ascending. */
function shapeNumber(s: ListShape): number {
  return (
    STATUS_SHAPES.indexOf(s.status) +
    (s.category ? 4 : 0) +
    (s.cursor ? 8 : 0) +
    (s.since ? 16 : 0) +
    ORDERS.indexOf(s.orderBy) * 32 +
    (s.direction === 'asc' ? 128 : 0)
  );
}

function shapeOf(n: number): ListShape {
  return {
    status: STATUS_SHAPES[n & 3],
    category: (n & 4) !== 0,
    cursor: (n & 8) !== 0,
    since: (n & 16) !== 0,
    orderBy: ORDERS[(n >> 5) & 3],
    direction: n & 128 ? 'asc' : 'desc',
  };
}

/**
 * The list query of one shape. `$` gives the value of an argument: a placeholder for a compiled
 * template, or the value itself for a search (whose terms vary too much to template).
 */
function buildList(db: Db, $: ListArgs, s: ListShape, terms?: string[]) {
  let q = fromPosts(db).select(LIST_COLUMNS).where('posts.store_id', '=', $.store);
  if (s.status === 'draft') q = q.where('posts.published_at', 'is', null);
  if (s.status === 'scheduled') q = q.where('posts.published_at', '>', $.now);
  if (s.status === 'published') q = q.where('posts.published_at', '<=', $.now);
  if (s.category) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('post_categories')
          .select('post_id')
          .whereRef('post_categories.post_id', '=', 'posts.id')
          .where('post_categories.category_id', '=', $.category!),
      ),
    );
  }
  if (s.since) q = q.where('posts.updated_at', '>=', $.updatedSince!);
  if (terms && terms.length > 0) q = q.where((eb) => matchesTerms(eb, terms, isPostgres(db), $.store as number));
  const key =
    s.orderBy === 'published_at'
      ? sql<number>`COALESCE(posts.published_at, ${sql.lit(DRAFTS_LAST[s.direction])})`
      : sql<number>`${sql.ref(`posts.${s.orderBy}`)}`;
  if (s.cursor) {
    // A row-value comparison, so the index range starts at the cursor (an OR of the two
    // conditions made every page scan from the newest post).
    const op = s.direction === 'desc' ? '<' : '>';
    q = q.where(sql<SqlBool>`(${key}, posts.id) ${sql.raw(op)} (${$.afterKey}, ${$.afterId})`);
  }
  return q.orderBy(key, s.direction).orderBy('posts.id', s.direction).limit($.limit);
}

const listPage = queryTemplate((db, $: ListArgs, variantNumber) => buildList(db, $, shapeOf(variantNumber)));

export async function listPosts(db: Db, filter: ListFilter): Promise<PostListRecord[]> {
  const variant: ListShape = {
    status: filter.status,
    category: filter.categoryId !== undefined,
    cursor: filter.after !== undefined,
    since: filter.updatedSince !== undefined,
    orderBy: filter.orderBy,
    direction: filter.direction,
  };
  const args: ListArgs = {
    store: filter.storeId,
    now: filter.now,
    category: filter.categoryId,
    afterKey: filter.after?.key,
    afterId: filter.after?.id,
    limit: filter.limit,
    updatedSince: filter.updatedSince,
  };
  let rows: Array<Omit<PostListRecord, 'category_ids'>>;
  if (filter.terms?.length) {
    // How selective a term is decides the plan (walk the list's index, or start from the
    // search index), so PostgreSQL must plan each search with its own terms: a statement that
    // does not start with a keyword is sent unnamed (see namePreparedStatements), never with a
    // generic plan. SQLite plans alike either way.
    const compiled = buildList(db, args, variant, filter.terms).compile();
    rows = (
      await db.executeQuery<Omit<PostListRecord, 'category_ids'>>({ ...compiled, sql: `/* search */ ${compiled.sql}` })
    ).rows;
  } else {
    rows = await listPage(db, args, shapeNumber(variant));
  }
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

/** A new post is a draft with no views: said here once, for its insert and its row as created. */
const NEW_POST_STATE = { published_at: null, view_count: 0 } as const;

function newPostValues($: NewPost) {
  return {
    store_id: $.storeId,
    title: $.title,
    summary: $.summary,
    body_html: $.bodyHtml,
    warnings: $.warnings,
    cover_image_id: $.coverImageId,
    default_category_id: $.defaultCategoryId,
    ...NEW_POST_STATE,
    created_at: $.now,
    updated_at: $.now,
  };
}

/**
 * A new post's insert on both engines: on SQLite alone, the table giving the id (insertPost); on
 * PostgreSQL inside the one-statement create, with the id taken ahead (create-statement.ts).
 */
export function postInsert(db: Db, $: NewPost, id?: number) {
  return db.insertInto('posts').values(id === undefined ? newPostValues($) : { id, ...newPostValues($) });
}

const insertPostRow = queryTemplate((db, $: NewPost) => postInsert(db, $).returning('id'));

/** Inserts a post and returns its row as stored, without reading it back. */
export async function insertPost(trx: Db, post: NewPost): Promise<Selectable<PostsTable>> {
  const [{ id }] = await insertPostRow(trx, post);
  return postRow(post, id);
}

/** The row a new post is stored as, under `id`. */
export function postRow(post: NewPost, id: number): Selectable<PostsTable> {
  return { id, ...newPostValues(post) };
}

const deleteCategoryLinks = queryTemplate((db, $: { postId: number }) =>
  db.deleteFrom('post_categories').where('post_id', '=', $.postId),
);

export async function replaceCategories(
  trx: Db,
  storeId: number,
  postId: number,
  categoryIds: number[],
): Promise<void> {
  await deleteCategoryLinks(trx, { postId });
  await addCategoryLinks(trx, storeId, postId, categoryIds);
}

/**
 * The links of a post that has none yet to its categories, on both engines: PostgreSQL's takes
 * the ids as one array (so the one-statement create is compiled once for any number of them).
 */
export function categoryLinksInsert(db: Db, $: { storeId: number; postId: number; categoryIds: number[] }) {
  const links = db.insertInto('post_categories');
  if (isPostgres(db))
    return links
      .columns(['post_id', 'category_id', 'store_id'])
      .expression(
        sql<never>`SELECT ${$.postId}::bigint, c, ${$.storeId}::bigint FROM unnest(${$.categoryIds}::bigint[]) AS c`,
      );
  return links.values($.categoryIds.map((category_id) => ({ post_id: $.postId, category_id, store_id: $.storeId })));
}

/** Links a post that has none yet (a new one) to its categories. */
export async function addCategoryLinks(trx: Db, storeId: number, postId: number, categoryIds: number[]): Promise<void> {
  if (categoryIds.length === 0) return;
  await categoryLinksInsert(trx, { storeId, postId, categoryIds }).execute();
}

/**
 * Takes the post's row lock for the rest of the transaction, the same way on both engines: an
 * update that changes nothing (PostgreSQL locks the row and later statements see the newest
 * committed row; SQLite holds the database's write lock). False when the post does not exist.
 */
export async function lockPost(trx: Db, storeId: number, id: number): Promise<boolean> {
  const result = await trx
    .updateTable('posts')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Which of `ids` are categories of the store. Here rather than in the categories module, which
 * sits above posts (it reads and presents a category's posts): going through it would be a cycle.
 */
export async function storeCategoryIds(db: Db, storeId: number, ids: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('categories')
    .select('id')
    .where('store_id', '=', storeId)
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => r.id);
}

/** The fields an update writes to the post's own row (the title and both ids always, the rest when sent). */
export interface PostChanges {
  title: string;
  summary?: string | null;
  body?: { html: string; warnings: string };
  coverImageId: string | null;
  defaultCategoryId: number | null;
  now: number;
}

export async function updatePostRow(trx: Db, storeId: number, id: number, changes: PostChanges): Promise<void> {
  await trx
    .updateTable('posts')
    .set({
      title: changes.title,
      ...(changes.summary !== undefined ? { summary: changes.summary } : {}),
      ...(changes.body ? { body_html: changes.body.html, warnings: changes.body.warnings } : {}),
      cover_image_id: changes.coverImageId,
      default_category_id: changes.defaultCategoryId,
      updated_at: changes.now,
    })
    .where('id', '=', id)
    .where('store_id', '=', storeId)
    .execute();
}

/** Links a product to the post; false when it was linked already. */
export async function addProductLink(
  trx: Db,
  link: { storeId: number; postId: number; productId: string; now: number },
): Promise<boolean> {
  const result = await trx
    .insertInto('post_product_links')
    .values({ store_id: link.storeId, post_id: link.postId, product_id: link.productId, created_at: link.now })
    .onConflict((oc) => oc.columns(['post_id', 'product_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Removes a product's link to the post; false when there was none. */
export async function removeProductLink(trx: Db, postId: number, productId: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('post_product_links')
    .where('post_id', '=', postId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The products linked to the post, by id. */
export async function productIdsOf(db: Db, postId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('post_product_links')
    .select('product_id')
    .where('post_id', '=', postId)
    .orderBy('product_id')
    .execute();
  return rows.map((r) => r.product_id);
}

/** Scheduled `post.published` events due at `now`, soonest first, at most `limit` (schedule-scan.ts). */
export function dueSchedules(db: Db, now: number, limit: number) {
  return db
    .selectFrom('webhook_schedules')
    .selectAll()
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/** Takes a due schedule (deletes it); false when another scan took it first or it was rescheduled. */
export async function takeSchedule(trx: Db, postId: number, dueAt: number): Promise<boolean> {
  const deleted = await trx
    .deleteFrom('webhook_schedules')
    .where('post_id', '=', postId)
    .where('due_at', '=', dueAt)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}
