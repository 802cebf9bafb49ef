import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/database.js';
import type { CategoriesTable } from '../../db/schema.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { formatWithOffset } from '../../lib/time.js';
import { recordAudit, type Actor } from '../audit/index.js';
import type { Store } from '../stores/index.js';
import { recordEvent } from '../webhooks/event-outbox.js';
import type { CategoryView, CreateCategoryInput } from './category-schemas.js';
import { storeResponse, type StoredResponse } from '../idempotency/index.js';

export const CATEGORY_NAME_MAX = 100;

export function presentCategory(row: Selectable<CategoriesTable>, offset: string): CategoryView {
  return {
    id: row.id,
    name: row.name,
    parent_id: row.parent_id,
    depth: row.depth,
    created_at: formatWithOffset(row.created_at, offset),
    updated_at: formatWithOffset(row.updated_at, offset),
  };
}

export class CategoryService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(store: Store): Promise<{ data: CategoryView[] }> {
    const rows = await this.db.selectFrom('categories').selectAll().where('store_id', '=', store.id).orderBy('id').execute();
    return { data: rows.map((r) => presentCategory(r, store.utcOffset)) };
  }

  /** `response`: given the category as it will be returned, the response stored for replays, with the category. */
  async create(store: Store, input: CreateCategoryInput, actor: Actor, options: { response?: (category: CategoryView) => StoredResponse } = {}): Promise<CategoryView> {
    const name = normalizeName(input.name, 'name');
    const parentId = input.parent_id ?? null;
    const depth = parentId === null ? 1 : (await this.parentDepth(store, parentId, 'parent_id')) + 1;
    if (depth > store.limits.categoryMaxDepth) {
      throw new ApiError('validation_failed', [detail('parent_id', `would exceed the maximum category depth of ${store.limits.categoryMaxDepth}`)]);
    }
    await this.assertNameFree(store, name, parentId);
    const now = this.clock.now().getTime();
    try {
      return await this.db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('categories')
          .values({ store_id: store.id, name, parent_id: parentId, parent_key: parentId ?? 0, depth, created_at: now, updated_at: now })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, actor, { action: 'category.created', resourceType: 'category', resourceId: created.id, changes: ['name', 'parent_id'], at: now });
        const category = presentCategory(created, store.utcOffset);
        await recordEvent(trx, store, 'category.created', now, () => category);
        const response = options.response?.(category);
        if (response) await storeResponse(trx, response);
        return category;
      });
    } catch (err) {
      // A concurrent create of the same name won the unique index: answer like a plain conflict.
      if (isUniqueViolation(err)) await this.assertNameFree(store, name, parentId);
      throw err;
    }
  }

  // Back office (operator CLI): not offered by the API.

  async rename(store: Store, id: number, rawName: string): Promise<CategoryView> {
    const current = await this.require(store, id);
    const name = normalizeName(rawName, 'name');
    if (name !== current.name) await this.assertNameFree(store, name, current.parent_id);
    const row = await this.db.updateTable('categories').set({ name, updated_at: this.clock.now().getTime() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return presentCategory(row, store.utcOffset);
  }

  async move(store: Store, id: number, parentId: number | null): Promise<CategoryView> {
    const current = await this.require(store, id);
    const all = await this.db.selectFrom('categories').selectAll().where('store_id', '=', store.id).execute();
    const childrenOf = (pid: number) => all.filter((c) => c.parent_id === pid);
    const subtree: Array<Selectable<CategoriesTable>> = [];
    const walk = (c: Selectable<CategoriesTable>) => {
      subtree.push(c);
      childrenOf(c.id).forEach(walk);
    };
    walk(current);
    if (parentId !== null && subtree.some((c) => c.id === parentId)) throw new ApiError('validation_failed', [detail('parent_id', 'cannot be the category itself or one of its descendants')]);
    const newDepth = parentId === null ? 1 : (await this.parentDepth(store, parentId, 'parent_id')) + 1;
    const shift = newDepth - current.depth;
    const deepest = Math.max(...subtree.map((c) => c.depth)) + shift;
    if (deepest > store.limits.categoryMaxDepth) throw new ApiError('validation_failed', [detail('parent_id', `would exceed the maximum category depth of ${store.limits.categoryMaxDepth}`)]);
    await this.assertNameFree(store, current.name, parentId, id);
    const now = this.clock.now().getTime();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('categories').set({ parent_id: parentId, parent_key: parentId ?? 0, depth: newDepth, updated_at: now }).where('id', '=', id).execute();
      for (const c of subtree.slice(1)) await trx.updateTable('categories').set({ depth: c.depth + shift, updated_at: now }).where('id', '=', c.id).execute();
    });
    return presentCategory(await this.require(store, id), store.utcOffset);
  }

  /** Deletes a leaf category; posts lose it (and it stops being their default). */
  async delete(store: Store, id: number): Promise<void> {
    await this.require(store, id);
    const child = await this.db.selectFrom('categories').select('id').where('parent_id', '=', id).executeTakeFirst();
    if (child) throw new ApiError('validation_failed', [detail('id', 'has child categories; move or delete them first')]);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('post_categories').where('category_id', '=', id).execute();
      await trx.updateTable('posts').set({ default_category_id: null }).where('store_id', '=', store.id).where('default_category_id', '=', id).execute();
      await trx.deleteFrom('categories').where('id', '=', id).execute();
    });
  }

  private async require(store: Store, id: number) {
    const row = await this.db.selectFrom('categories').selectAll().where('store_id', '=', store.id).where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError('not_found');
    return row;
  }

  private async parentDepth(store: Store, parentId: number, field: string): Promise<number> {
    const parent = await this.db.selectFrom('categories').select('depth').where('store_id', '=', store.id).where('id', '=', parentId).executeTakeFirst();
    if (!parent) throw new ApiError('validation_failed', [detail(field, 'is not a category of this store')]);
    return parent.depth;
  }

  private async assertNameFree(store: Store, name: string, parentId: number | null, exceptId?: number): Promise<void> {
    let q = this.db.selectFrom('categories').select('id').where('store_id', '=', store.id).where('parent_key', '=', parentId ?? 0).where('name', '=', name);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    const existing = await q.executeTakeFirst();
    if (existing) throw new ApiError('category_name_conflict', [detail('category_id', String(existing.id))]);
  }
}

function normalizeName(raw: string, field: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length === 0 || length > CATEGORY_NAME_MAX) throw new ApiError('validation_failed', [detail(field, `must be 1 to ${CATEGORY_NAME_MAX} characters after trimming`)]);
  return name;
}
