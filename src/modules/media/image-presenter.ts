import type { Store } from '../stores/index.js';
import { imagePublicRef } from './image-refs.js';
import type { ImageObject } from './image-schemas.js';
import type { ImageRow } from './media-repository.js';

/** The image object as every answer shows it: the upload, the list and the read. */
export function presentImage(store: Store, row: ImageRow, publicBaseUrl: string): ImageObject {
  return {
    id: row.id,
    basename: row.basename,
    ...imagePublicRef(store.handle, row.basename, publicBaseUrl),
    content_type: row.content_type,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
  };
}
