// Duplicate content: same store, same title and body within ten minutes → 409
// (docs/api-behaviour.md, "Posts").
// One row per (store, fingerprint) under a primary key: the database settles concurrent
// creates, whichever process they run in.
import type { Db } from '../../db/database.js';
import { queryTemplate, writeTemplate } from '../../db/query-template.js';
import { ApiError, detail } from '../../lib/api-error.js';

export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export function duplicateError(postId: number): ApiError {
  return new ApiError('duplicate_content', [detail('post_id', String(postId))]);
}

/**
 * Throws duplicate_content when a post with this content was created in the window. Returns
 * whether a row for this content exists at all (one from outside the window is replaced when the
 * new post's fingerprint is recorded).
 */
export async function assertNotDuplicate(trx: Db, storeId: number, fingerprint: string, now: number, exceptPostId?: number): Promise<boolean> {
  const existing = await findFingerprint(trx, storeId, fingerprint);
  if (existing && existing.created_at > now - DUPLICATE_WINDOW_MS && existing.post_id !== exceptPostId) throw duplicateError(existing.post_id);
  return existing !== undefined;
}

// Every create runs these, so they are compiled once (see queryTemplate).
const deleteExpired = writeTemplate((db, $: { storeId: number; fingerprint: string; createdUpTo: number }) =>
  db.deleteFrom('content_fingerprints').where('store_id', '=', $.storeId).where('fingerprint', '=', $.fingerprint).where('created_at', '<=', $.createdUpTo),
);
const insertFingerprint = writeTemplate((db, $: { storeId: number; fingerprint: string; postId: number; now: number }) =>
  db.insertInto('content_fingerprints').values({ store_id: $.storeId, fingerprint: $.fingerprint, post_id: $.postId, created_at: $.now }),
);
const selectFingerprint = queryTemplate((db, $: { storeId: number; fingerprint: string }) =>
  db.selectFrom('content_fingerprints').select(['post_id', 'created_at']).where('store_id', '=', $.storeId).where('fingerprint', '=', $.fingerprint),
);

/**
 * Records a creation. `replacesOlder` (what assertNotDuplicate returned in the same
 * transaction): an older row for the same content, outside the window, is deleted first.
 */
export async function recordFingerprint(trx: Db, storeId: number, fingerprint: string, postId: number, now: number, replacesOlder: boolean): Promise<void> {
  if (replacesOlder) await deleteExpired(trx, { storeId, fingerprint, createdUpTo: now - DUPLICATE_WINDOW_MS });
  await insertFingerprint(trx, { storeId, fingerprint, postId, now });
}

export async function findFingerprint(db: Db, storeId: number, fingerprint: string): Promise<{ post_id: number; created_at: number } | undefined> {
  const [row] = await selectFingerprint(db, { storeId, fingerprint });
  return row;
}
