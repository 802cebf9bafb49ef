import type { Db } from '../../db/database.js';
import type { Store } from '../stores/index.js';
import { imagePublicRef } from './image-refs.js';

/** The live image of this store whose url is exactly `url`, or null (cover_image_url rule). */
export async function findOwnedImageByUrl(db: Db, store: Store, url: string, publicBaseUrl: string): Promise<{ id: string; path: string; url: string } | null> {
  const prefix = `${publicBaseUrl}/media/${store.handle}/`;
  if (!url.startsWith(prefix)) return null;
  const row = await db
    .selectFrom('images')
    .select(['id', 'basename'])
    .where('store_id', '=', store.id)
    .where('basename', '=', url.slice(prefix.length))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: row.id, ...imagePublicRef(store.handle, row.basename, publicBaseUrl) } : null;
}
