import { BlogApiError } from '../errors.js';
import type { components } from '../generated/openapi.js';
import type { RequestOptions } from '../transport.js';
import type { Category, CategoryChanges, NewCategory } from '../types.js';
import { id, newIdempotencyKey, requestOptions, Resource, type CreateOptions } from './resource.js';

export interface CreateCategoryOptions extends CreateOptions {
  /** A name already used under that parent returns that category instead of failing with 409 category_name_conflict. */
  reuseExisting?: boolean;
}

export class CategoriesApi extends Resource {
  /** The whole tree, ordered by id. */
  async list(options?: RequestOptions): Promise<Category[]> {
    return (
      await this.body<components['schemas']['CategoryList']>({
        method: 'GET',
        path: '/v1/blog/categories',
        options: requestOptions(options),
      })
    ).data;
  }

  /** An Idempotency-Key is generated when none is given and reused on this call's own retries. */
  async create(input: NewCategory, options: CreateCategoryOptions = {}): Promise<Category> {
    const key = options.idempotencyKey ?? newIdempotencyKey();
    try {
      return await this.body({
        method: 'POST',
        path: '/v1/blog/categories',
        json: input,
        headers: { 'idempotency-key': key },
        options: requestOptions(options),
      });
    } catch (err) {
      if (!options.reuseExisting || !(err instanceof BlogApiError) || err.code !== 'category_name_conflict') throw err;
      const existingId = Number(err.detail('category_id'));
      const existing = (await this.list(requestOptions(options))).find((c) => c.id === existingId);
      if (!existing) throw err;
      return existing;
    }
  }

  /** Renames (`name`) and/or moves (`parent_id`, null: to the root) a category with its subtree. */
  async update(categoryId: number, changes: CategoryChanges, options?: RequestOptions): Promise<Category> {
    return this.body({
      method: 'PATCH',
      path: `/v1/blog/categories/${id(categoryId)}`,
      json: changes,
      options: requestOptions(options),
    });
  }

  /**
   * Deletes a category without children (else `category_has_children`); posts lose it. A call
   * retried after a network failure that finds the category gone counts as done.
   */
  async delete(categoryId: number, options?: RequestOptions): Promise<void> {
    try {
      await this.send({
        method: 'DELETE',
        path: `/v1/blog/categories/${id(categoryId)}`,
        options: requestOptions(options),
      });
    } catch (err) {
      if (err instanceof BlogApiError && err.code === 'not_found' && err.attempts > 1) return;
      throw err;
    }
  }
}
