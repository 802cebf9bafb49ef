// What housekeeping does for media: remove the files (and variants) of deleted images whose removal
// failed or was interrupted, and files that no image row accounts for (an upload whose row never
// committed). Each call does one bounded batch, so the caller can stop or yield between them.
import type { Db } from '../../db/database.js';
import { removeImageFiles } from './image-files.js';
import { sourceBasenameOf } from './image-variants.js';
import type { MediaStore } from './media-store.js';

/**
 * A removal owed for less than this is left alone: the request that deleted the image may still
 * be removing the file itself, or restoring the image because the removal failed.
 */
export const OWED_REMOVAL_GRACE_MS = 5 * 60 * 1000;

export interface BatchOutcome {
  removed: number;
  /** Removals the store refused this time (tried again on a later pass). */
  failed: number;
  /** Whether another batch may find more work now. */
  more: boolean;
}

/** Removes the files (each with its variants) of up to `limit` deleted images (media_deletions older than the grace). */
export async function removeOwedFiles(db: Db, files: MediaStore, now: number, limit: number): Promise<BatchOutcome> {
  const owed = await db
    .selectFrom('media_deletions')
    .innerJoin('images', 'images.id', 'media_deletions.image_id')
    .innerJoin('stores', 'stores.id', 'images.store_id')
    .select(['media_deletions.image_id', 'images.basename', 'images.width', 'images.deleted_at', 'stores.handle'])
    .where('media_deletions.requested_at', '<=', now - OWED_REMOVAL_GRACE_MS)
    .orderBy('media_deletions.requested_at')
    .limit(limit)
    .execute();
  let removed = 0;
  let failed = 0;
  for (const row of owed) {
    // A live image was restored after its removal failed; its file must stay.
    if (row.deleted_at !== null) {
      try {
        await removeImageFiles(files, row.handle, row.basename, row.width);
      } catch {
        failed++;
        continue;
      }
      removed++;
    }
    await db.deleteFrom('media_deletions').where('image_id', '=', row.image_id).execute();
  }
  // A batch whose removals all failed would only fail again now: the store is down.
  return { removed, failed, more: owed.length === limit && failed < owed.length };
}

export interface SweepOutcome {
  removed: number;
  failed: number;
  /** Listing position to go on from, or null when the listing reached its end. */
  next: string | null;
}

/**
 * Looks at one page of stored files after `after` and removes those written before `cutoff`
 * that no image accounts for: no row with that store and name, or a row deleted before
 * `cutoff`. A variant is accounted for by its image (a variant made while its image was being
 * deleted is removed here). A younger file may belong to an upload whose row has not committed yet.
 */
export async function sweepOrphanFiles(
  db: Db,
  files: MediaStore,
  cutoff: number,
  after: string | null,
  limit: number,
): Promise<SweepOutcome> {
  const page = await files.list(after, limit);
  const old = page.objects.filter((o) => o.modifiedAt.getTime() < cutoff);
  let removed = 0;
  let failed = 0;
  if (old.length > 0) {
    const rows = await db
      .selectFrom('images')
      .innerJoin('stores', 'stores.id', 'images.store_id')
      .select(['images.basename', 'images.deleted_at', 'stores.handle'])
      .where('images.basename', 'in', [...new Set(old.map((o) => sourceBasenameOf(o.basename)))])
      .execute();
    const accounted = new Set(
      rows
        .filter((r) => r.deleted_at === null || Number(r.deleted_at) >= cutoff)
        .map((r) => `${r.handle}/${r.basename}`),
    );
    for (const object of old) {
      if (accounted.has(`${object.handle}/${sourceBasenameOf(object.basename)}`)) continue;
      try {
        await files.remove(object.handle, object.basename);
        removed++;
      } catch {
        failed++;
      }
    }
  }
  return { removed, failed, next: page.next };
}
