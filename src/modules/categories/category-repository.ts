// Plain data access for categories; takes `db` or a transaction. No rules here: the service
// decides depth, cycles and name clashes from what these return.
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';
import type { CategoriesTable } from '../../db/schema.js';

export type CategoryRow = Selectable<CategoriesTable>;

export function listCategories(db: Db, storeId: number): Promise<CategoryRow[]> {
  return db.selectFrom('categories').selectAll().where('store_id', '=', storeId).orderBy('id').execute();
}

export function findCategory(db: Db, storeId: number, id: number): Promise<CategoryRow | undefined> {
  return db
    .selectFrom('categories')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findCategoryDepth(db: Db, storeId: number, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('categories')
    .select('depth')
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.depth;
}

/** The id of the category named `name` under `parentId` (null: top level), other than `exceptId`. */
export async function findCategoryNamed(
  db: Db,
  storeId: number,
  name: string,
  parentId: number | null,
  exceptId?: number,
): Promise<number | undefined> {
  let q = db
    .selectFrom('categories')
    .select('id')
    .where('store_id', '=', storeId)
    .where('parent_key', '=', parentId ?? 0)
    .where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst())?.id;
}

export interface NewCategory {
  storeId: number;
  name: string;
  parentId: number | null;
  depth: number;
  now: number;
}

export function insertCategory(trx: Db, category: NewCategory): Promise<CategoryRow> {
  const { storeId, name, parentId, depth, now } = category;
  return trx
    .insertInto('categories')
    .values({
      store_id: storeId,
      name,
      parent_id: parentId,
      parent_key: parentId ?? 0,
      depth,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The store's categories, read in `trx`; on PostgreSQL locked until it ends (SQLite has one writer at a time). */
export function lockTree(trx: Db, storeId: number): Promise<CategoryRow[]> {
  const q = trx.selectFrom('categories').selectAll().where('store_id', '=', storeId).orderBy('id');
  return isPostgres(trx) ? q.forUpdate().execute() : q.execute();
}

export function updateCategory(
  trx: Db,
  storeId: number,
  id: number,
  change: { name: string; parentId: number | null; depth: number; now: number },
): Promise<CategoryRow> {
  return trx
    .updateTable('categories')
    .set({
      name: change.name,
      parent_id: change.parentId,
      parent_key: change.parentId ?? 0,
      depth: change.depth,
      updated_at: change.now,
    })
    .where('id', '=', id)
    .where('store_id', '=', storeId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Moves these categories `shift` levels (the descendants of a moved category). */
export async function shiftDepths(trx: Db, ids: number[], shift: number, now: number): Promise<void> {
  await trx
    .updateTable('categories')
    .set((eb) => ({ depth: eb('depth', '+', shift), updated_at: now }))
    .where('id', 'in', ids)
    .execute();
}

/** The store's posts linked to the category or having it as their default, by id. */
export function postsOfCategory(
  trx: Db,
  storeId: number,
  id: number,
): Promise<Array<{ id: number; default_category_id: number | null }>> {
  return trx
    .selectFrom('posts')
    .select(['id', 'default_category_id'])
    .where('store_id', '=', storeId)
    .where((eb) =>
      eb.or([
        eb('id', 'in', eb.selectFrom('post_categories').select('post_id').where('category_id', '=', id)),
        eb('default_category_id', '=', id),
      ]),
    )
    .orderBy('id')
    .execute();
}

/**
 * Takes the category out of every post: its links go, a default of it becomes null, and the
 * posts `postIds` (those postsOfCategory found) are marked updated at `now`.
 */
export async function detachCategory(
  trx: Db,
  storeId: number,
  id: number,
  postIds: number[],
  now: number,
): Promise<void> {
  await trx.deleteFrom('post_categories').where('category_id', '=', id).execute();
  await trx
    .updateTable('posts')
    .set({ default_category_id: null })
    .where('store_id', '=', storeId)
    .where('default_category_id', '=', id)
    .execute();
  await trx
    .updateTable('posts')
    .set({ updated_at: now })
    .where('store_id', '=', storeId)
    .where('id', 'in', postIds)
    .execute();
}

export async function deleteCategory(trx: Db, storeId: number, id: number): Promise<void> {
  await trx.deleteFrom('categories').where('id', '=', id).where('store_id', '=', storeId).execute();
}
