import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/database.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { formatWithOffset } from '../../lib/time.js';
import { recordAudit, type Actor } from '../audit/index.js';
import type { Store } from '../stores/index.js';
import { recordEvent } from '../events/index.js';
import { findPost, presentPost } from '../posts/index.js';
import type { CategoryView, CreateCategoryInput, UpdateCategoryInput } from './category-schemas.js';
import { storeResponse, type StoredResponse } from '../idempotency/index.js';
import {
  deleteCategory,
  detachCategory,
  findCategory,
  findCategoryDepth,
  findCategoryNamed,
  insertCategory,
  listCategories,
  lockTree,
  postsOfCategory,
  shiftDepths,
  updateCategory,
  type CategoryRow,
} from './category-repository.js';

export const CATEGORY_NAME_MAX = 100;

export function presentCategory(row: CategoryRow, offset: string): CategoryView {
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
    /** For the posts a deletion changes, as their post.updated events show them. */
    private readonly publicBaseUrl = '',
  ) {}

  async list(store: Store): Promise<{ data: CategoryView[] }> {
    const rows = await listCategories(this.db, store.id);
    return { data: rows.map((r) => presentCategory(r, store.utcOffset)) };
  }

  /** `response`: given the category as it will be returned, the response stored for replays, with the category. */
  async create(
    store: Store,
    input: CreateCategoryInput,
    actor: Actor,
    options: { response?: (category: CategoryView) => StoredResponse } = {},
  ): Promise<CategoryView> {
    const name = normalizeName(input.name, 'name');
    const parentId = input.parent_id ?? null;
    const depth = parentId === null ? 1 : (await this.parentDepth(store, parentId, 'parent_id')) + 1;
    if (depth > store.limits.categoryMaxDepth) {
      throw new ApiError('validation_failed', [
        detail('parent_id', `would exceed the maximum category depth of ${store.limits.categoryMaxDepth}`),
      ]);
    }
    await this.assertNameFree(store, name, parentId);
    const now = this.clock.now().getTime();
    try {
      return await this.db.transaction().execute(async (trx) => {
        const created = await insertCategory(trx, { storeId: store.id, name, parentId, depth, now });
        await recordAudit(trx, actor, {
          action: 'category.created',
          resourceType: 'category',
          resourceId: created.id,
          changes: ['name', 'parent_id'],
          at: now,
        });
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

  /**
   * Rename and/or move (PATCH /v1/blog/categories/{id}, and the operator CLI), in one
   * transaction. The store's category rows are read inside it, locked on PostgreSQL, so that
   * two concurrent moves cannot build a cycle or a tree deeper than the limit between them.
   */
  async update(store: Store, id: number, input: UpdateCategoryInput, actor: Actor): Promise<CategoryView> {
    const name = input.name !== undefined ? normalizeName(input.name, 'name') : undefined;
    const now = this.clock.now().getTime();
    try {
      const row = await this.db.transaction().execute(async (trx) => {
        const all = await lockTree(trx, store.id);
        const current = all.find((c) => c.id === id);
        if (!current) throw new ApiError('not_found');
        const parentId = input.parent_id !== undefined ? input.parent_id : current.parent_id;
        const newName = name ?? current.name;
        const moving = parentId !== current.parent_id;
        if (!moving && newName === current.name) return current;
        const subtree = subtreeOf(all, current);
        let depth = current.depth;
        if (moving) {
          const parent = parentId === null ? null : all.find((c) => c.id === parentId);
          if (parent === undefined)
            throw new ApiError('validation_failed', [detail('parent_id', 'is not a category of this store')]);
          if (parent && subtree.some((c) => c.id === parent.id))
            throw new ApiError('validation_failed', [
              detail('parent_id', 'cannot be the category itself or one of its descendants'),
            ]);
          depth = parent ? parent.depth + 1 : 1;
          const deepest = Math.max(...subtree.map((c) => c.depth)) + depth - current.depth;
          if (deepest > store.limits.categoryMaxDepth) {
            throw new ApiError('validation_failed', [
              detail(
                'parent_id',
                `would exceed the maximum category depth of ${store.limits.categoryMaxDepth} (the category's subtree is ${deepest - depth + 1} levels deep)`,
              ),
            ]);
          }
        }
        const clash = all.find((c) => c.id !== id && c.parent_key === (parentId ?? 0) && c.name === newName);
        if (clash) throw new ApiError('category_name_conflict', [detail('category_id', String(clash.id))]);
        const updated = await updateCategory(trx, store.id, id, { name: newName, parentId, depth, now });
        const shift = depth - current.depth;
        const descendants = subtree.slice(1).map((c) => c.id);
        if (shift !== 0 && descendants.length > 0) {
          await shiftDepths(trx, descendants, shift, now);
        }
        const changes = [...(newName !== current.name ? ['name'] : []), ...(moving ? ['parent_id'] : [])];
        await recordAudit(trx, actor, {
          action: 'category.updated',
          resourceType: 'category',
          resourceId: id,
          changes,
          at: now,
        });
        await recordEvent(trx, store, 'category.updated', now, () => presentCategory(updated, store.utcOffset));
        return updated;
      });
      return presentCategory(row, store.utcOffset);
    } catch (err) {
      // A concurrent create of the same name won the unique index: answer like a plain conflict.
      if (isUniqueViolation(err) && name !== undefined) {
        const current = await this.require(store, id).catch(() => null);
        await this.assertNameFree(
          store,
          name,
          input.parent_id !== undefined ? input.parent_id : (current?.parent_id ?? null),
          id,
        );
      }
      throw err;
    }
  }

  /**
   * Deletes a category without children (409 category_has_children otherwise). In the same
   * transaction every post loses it from category_ids, and from default_category_id where it
   * was the default; each such post is updated (updated_at, so a sync sees it) with an audit
   * event and a post.updated event.
   */
  async delete(store: Store, id: number, actor: Actor): Promise<void> {
    const now = this.clock.now().getTime();
    await this.db.transaction().execute(async (trx) => {
      const all = await lockTree(trx, store.id);
      if (!all.some((c) => c.id === id)) throw new ApiError('not_found');
      const children = all.filter((c) => c.parent_id === id).map((c) => c.id);
      if (children.length > 0)
        throw new ApiError('category_has_children', [detail('child_category_ids', children.join(', '))]);
      const posts = await postsOfCategory(trx, store.id, id);
      if (posts.length > 0) {
        await detachCategory(
          trx,
          store.id,
          id,
          posts.map((p) => p.id),
          now,
        );
        for (const post of posts) {
          const changes = post.default_category_id === id ? ['category_ids', 'default_category_id'] : ['category_ids'];
          await recordAudit(trx, actor, {
            action: 'post.updated',
            resourceType: 'post',
            resourceId: post.id,
            changes,
            at: now,
          });
          // The feed (and webhooks) show each post as it is now, so a mirror needs no rule of its own.
          const record = await findPost(trx, store.id, post.id);
          if (record)
            await recordEvent(trx, store, 'post.updated', now, () =>
              presentPost(record, { store, now, publicBaseUrl: this.publicBaseUrl }),
            );
        }
      }
      await deleteCategory(trx, store.id, id);
      await recordAudit(trx, actor, {
        action: 'category.deleted',
        resourceType: 'category',
        resourceId: id,
        changes: [],
        at: now,
      });
      await recordEvent(trx, store, 'category.deleted', now, () => ({ id }));
    });
  }

  private async require(store: Store, id: number) {
    const row = await findCategory(this.db, store.id, id);
    if (!row) throw new ApiError('not_found');
    return row;
  }

  private async parentDepth(store: Store, parentId: number, field: string): Promise<number> {
    const depth = await findCategoryDepth(this.db, store.id, parentId);
    if (depth === undefined)
      throw new ApiError('validation_failed', [detail(field, 'is not a category of this store')]);
    return depth;
  }

  private async assertNameFree(store: Store, name: string, parentId: number | null, exceptId?: number): Promise<void> {
    const existing = await findCategoryNamed(this.db, store.id, name, parentId, exceptId);
    if (existing !== undefined) throw new ApiError('category_name_conflict', [detail('category_id', String(existing))]);
  }
}

/** The category and everything below it, the category first. */
function subtreeOf(all: CategoryRow[], root: CategoryRow): CategoryRow[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...all.filter((c) => c.parent_id === out[i].id));
  return out;
}

function normalizeName(raw: string, field: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length === 0 || length > CATEGORY_NAME_MAX)
    throw new ApiError('validation_failed', [
      detail(field, `must be 1 to ${CATEGORY_NAME_MAX} characters after trimming`),
    ]);
  return name;
}
