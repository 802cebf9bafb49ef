// Read-side helpers other modules use (the posts code resolves and renders cover images here).
import type { Db } from '../../db/database.js';
import type { Store } from '../stores/index.js';
import { findLiveImageId } from './media-repository.js';
import { imagePublicRef, isValidBasename, type ImagePublicRef } from './image-refs.js';

/**
 * The live image of THIS store whose `url` is exactly `url`, else null. Only the address the
 * service handed out counts: another store's image, a deleted one, a different host or any
 * variation of the address (query, case, trailing slash) is not this store's image.
 */
export async function findOwnedImageByUrl(
  db: Db,
  store: Store,
  url: string,
  publicBaseUrl: string,
): Promise<({ id: string; basename: string } & ImagePublicRef) | null> {
  const prefix = imagePublicRef(store.handle, '', publicBaseUrl).url;
  if (!url.startsWith(prefix)) return null;
  const basename = url.slice(prefix.length);
  if (!isValidBasename(basename)) return null;
  const id = await findLiveImageId(db, store.id, basename);
  return id ? { id, basename, ...imagePublicRef(store.handle, basename, publicBaseUrl) } : null;
}
