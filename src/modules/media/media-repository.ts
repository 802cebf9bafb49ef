// Plain data access for images and the file removals they owe; takes `db` or a transaction. No
// rules here: the service decides de-duplication, use by posts, and the order of file and row.
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ImagesTable } from '../../db/schema.js';

export type ImageRow = Selectable<ImagesTable>;

/** The store's live image with these uploaded bytes (the live-content index allows one). */
export function findLiveImageByContent(db: Db, storeId: number, sha256: string): Promise<ImageRow | undefined> {
  return db
    .selectFrom('images')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('sha256', '=', sha256)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findLiveImage(db: Db, storeId: number, id: string): Promise<ImageRow | undefined> {
  return db
    .selectFrom('images')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Where a page of the image list continues: after the image created at `createdAt` with id `id`. */
export interface ImageListPosition {
  createdAt: number;
  id: string;
}

/**
 * The store's live images, newest first (ties by id, descending), after `after` when given, at
 * most `limit` (index images_live_listing, migration 0016).
 */
export function listLiveImages(
  db: Db,
  storeId: number,
  after: ImageListPosition | undefined,
  limit: number,
): Promise<ImageRow[]> {
  let q = db.selectFrom('images').selectAll().where('store_id', '=', storeId).where('deleted_at', 'is', null);
  // A row-value comparison, so the index range starts at the cursor (as the post list does).
  if (after) q = q.where(sql<SqlBool>`(created_at, id) < (${after.createdAt}, ${after.id})`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The live image at a public address (store handle and file name), or undefined. */
export function findPublicImage(
  db: Db,
  handle: string,
  basename: string,
): Promise<{ content_type: string; basename: string } | undefined> {
  return db
    .selectFrom('images')
    .innerJoin('stores', 'stores.id', 'images.store_id')
    .select(['images.content_type', 'images.basename'])
    .where('stores.handle', '=', handle)
    .where('images.basename', '=', basename)
    .where('images.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** What a variant of a live image needs: its size and type, its store's id and image limits. */
export interface VariantSource {
  width: number;
  contentType: string;
  storeId: number;
  limits: {
    maxPixels: number;
    maxGifFrames: number;
    maxTotalPixels: number;
    maxWidth: number;
    maxBytes: number;
  };
}

/** The live image at a public address with what making a variant of it needs, or undefined. */
export async function findVariantSource(db: Db, handle: string, basename: string): Promise<VariantSource | undefined> {
  const row = await db
    .selectFrom('images')
    .innerJoin('stores', 'stores.id', 'images.store_id')
    .select([
      'images.width',
      'images.content_type',
      'images.store_id',
      'stores.image_max_bytes',
      'stores.image_max_pixels',
      'stores.image_max_width',
      'stores.image_max_gif_frames',
      'stores.image_max_total_pixels',
    ])
    .where('stores.handle', '=', handle)
    .where('images.basename', '=', basename)
    .where('images.deleted_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      width: row.width,
      contentType: row.content_type,
      storeId: row.store_id,
      limits: {
        maxBytes: row.image_max_bytes,
        maxPixels: row.image_max_pixels,
        maxWidth: row.image_max_width,
        maxGifFrames: row.image_max_gif_frames,
        maxTotalPixels: row.image_max_total_pixels,
      },
    }
  );
}

export async function insertImage(trx: Db, row: ImageRow): Promise<void> {
  await trx.insertInto('images').values(row).execute();
}

/**
 * Ids of the store's posts (drafts included) with the image as cover or with `path` anywhere in
 * their body, by id, at most `limit`. `path` must hold no LIKE wildcard.
 */
export async function postsUsingImage(
  db: Db,
  storeId: number,
  imageId: string,
  path: string,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('cover_image_id', '=', imageId), sql<SqlBool>`body_html LIKE ${`%${path}%`}`]))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * Marks a live image deleted and records the removal its file is owed (media_deletions, which
 * housekeeping reads). False, with nothing written, when the image was no longer live.
 */
export async function markImageDeleted(trx: Db, imageId: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('images')
    .set({ deleted_at: now })
    .where('id', '=', imageId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await trx.insertInto('media_deletions').values({ image_id: imageId, requested_at: now }).execute();
  return true;
}

/** The owed removal is done. */
export async function forgetOwedRemoval(db: Db, imageId: string): Promise<void> {
  await db.deleteFrom('media_deletions').where('image_id', '=', imageId).execute();
}

/**
 * Undoes markImageDeleted, and removes the image.deleted audit event written with it. Fails on
 * the live-content index when the same content is live again.
 */
export async function restoreImage(trx: Db, storeId: number, imageId: string): Promise<void> {
  await trx.updateTable('images').set({ deleted_at: null }).where('id', '=', imageId).execute();
  await forgetOwedRemoval(trx, imageId);
  await trx
    .deleteFrom('audit_events')
    .where('store_id', '=', storeId)
    .where('resource_type', '=', 'image')
    .where('resource_id', '=', imageId)
    .where('action', '=', 'image.deleted')
    .execute();
}

/** The id of the store's live image under `basename` (image-lookup.ts; a variant made meanwhile is kept only when there is one). */
export async function findLiveImageId(db: Db, storeId: number, basename: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('images')
    .select('id')
    .where('store_id', '=', storeId)
    .where('basename', '=', basename)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

/** Live images of every store after `afterId`, by id, with their store's handle (media-sync.ts). */
export function liveImagesAfter(
  db: Db,
  afterId: string,
  limit: number,
): Promise<Array<{ id: string; basename: string; handle: string }>> {
  return db
    .selectFrom('images')
    .innerJoin('stores', 'stores.id', 'images.store_id')
    .select(['images.id', 'images.basename', 'stores.handle'])
    .where('images.deleted_at', 'is', null)
    .where('images.id', '>', afterId)
    .orderBy('images.id')
    .limit(limit)
    .execute();
}
