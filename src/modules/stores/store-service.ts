import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { StoresTable } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { STORE_DEFAULTS, storeFromRow, type Store } from './store-settings.js';
import {
  countStores,
  failPendingDeliveries,
  findStoreById,
  findStoreByHandle,
  insertStore,
  updateStore,
} from './store-repository.js';

export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export interface CreateStoreInput {
  handle: string;
  name: string;
  categories?: boolean;
  media?: boolean;
  certified?: boolean;
  emoji?: boolean;
  webhooks?: boolean;
}

/** Columns the operator may change with `store update`; all validated by the CLI first. */
export type StoreChanges = Partial<
  Pick<
    StoresTable,
    | 'name'
    | 'categories_enabled'
    | 'media_enabled'
    | 'certified'
    | 'writes_paused'
    | 'emoji_allowed'
    | 'title_max_length'
    | 'body_max_bytes'
    | 'posts_per_day'
    | 'images_per_day'
    | 'image_max_bytes'
    | 'image_max_pixels'
    | 'image_max_width'
    | 'image_max_gif_frames'
    | 'image_max_total_pixels'
    | 'category_max_depth'
    | 'storefront_base_url'
    | 'utc_offset'
    | 'webhooks_enabled'
    | 'allowed_origins'
  >
>;

export class StoreService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(input: CreateStoreInput): Promise<Store> {
    const now = this.clock.now().getTime();
    const row: Insertable<StoresTable> = {
      handle: input.handle,
      name: input.name,
      categories_enabled: input.categories === false ? 0 : 1,
      media_enabled: input.media === false ? 0 : 1,
      certified: input.certified === false ? 0 : 1,
      writes_paused: 0,
      emoji_allowed: input.emoji === false ? 0 : 1,
      webhooks_enabled: input.webhooks === false ? 0 : 1,
      ...STORE_DEFAULTS,
      storefront_base_url: null,
      // allowed_origins is left to its default (none), so stores can still be made on a schema
      // from before it (the migration tests create stores between migrations).
      created_at: now,
      updated_at: now,
    };
    const created = await insertStore(this.db, row);
    return storeFromRow(created);
  }

  async update(handle: string, changes: StoreChanges): Promise<Store | null> {
    const patch: Updateable<StoresTable> = { ...changes, updated_at: this.clock.now().getTime() };
    return this.db.transaction().execute(async (trx) => {
      const updated = await updateStore(trx, handle, patch);
      if (!updated) return null;
      // Switching webhooks off stops them: waiting deliveries fail instead of being retried
      // (docs/webhooks.md); one in flight records its own outcome and is not retried either.
      if (changes.webhooks_enabled === 0) {
        await failPendingDeliveries(trx, updated.id);
      }
      return storeFromRow(updated);
    });
  }

  async findByHandle(handle: string): Promise<Store | null> {
    const row = await findStoreByHandle(this.db, handle);
    return row ? storeFromRow(row) : null;
  }

  async findById(id: number): Promise<Store | null> {
    const row = await findStoreById(this.db, id);
    return row ? storeFromRow(row) : null;
  }

  async count(): Promise<number> {
    return countStores(this.db);
  }
}
