// The stored size of the images a page shows, so their <img> tags carry width and height.
import type { Db } from '../../db/database.js';

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height of the store's live images among `basenames`, by basename. */
export async function imageSizes(db: Db, storeId: number, basenames: string[]): Promise<Map<string, ImageSize>> {
  if (basenames.length === 0) return new Map();
  const rows = await db
    .selectFrom('images')
    .select(['basename', 'width', 'height'])
    .where('store_id', '=', storeId)
    .where('basename', 'in', basenames)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.basename, { width: r.width, height: r.height }]));
}
