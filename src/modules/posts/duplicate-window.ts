// Duplicate content: same store, same title and body within ten minutes → 409
// (docs/api-behaviour.md, "Posts").
// One row per (store, fingerprint) under a primary key: the database settles concurrent
// creates, whichever process they run in.
import type { Db } from '../../db/database.js';
import { sql, type RawBuilder } from 'kysely';
import { queryTemplate, raw } from '../../db/query-template.js';
import { ApiError, detail } from '../../lib/api-error.js';

export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export interface FingerprintClaim {
  storeId: number;
  fingerprint: string;
  postId: number;
  now: number;
}

/**
 * A new post's claim on its content: the fingerprint's row is written for the post, or taken
 * over when the content was last created outside the window; no row returned means the same
 * content was created in the window (nothing changes: a duplicate). A concurrent create of the
 * same content waits for the first to commit (the primary key). The same SQL runs in SQLite's
 * create transaction and inside PostgreSQL's one-statement create (create-statement.ts).
 */
export function claimFingerprintSql($: FingerprintClaim): RawBuilder<{ claimed: number }> {
  return sql<{
    claimed: number;
  }>`INSERT INTO content_fingerprints AS f (store_id, fingerprint, post_id, created_at) VALUES (${$.storeId}, ${$.fingerprint}, ${$.postId}, ${$.now})
    ON CONFLICT (store_id, fingerprint) DO UPDATE SET post_id = excluded.post_id, created_at = excluded.created_at
    WHERE f.created_at <= CAST(${$.now} AS bigint) - ${sql.lit(DUPLICATE_WINDOW_MS)}
    RETURNING 1 AS claimed`;
}
const claimFingerprintRow = queryTemplate((db, $: FingerprintClaim) => raw(db, claimFingerprintSql($)));

/** Claims the content for a new post (claimFingerprintSql); false when it is a duplicate (nothing written). */
export async function claimFingerprint(trx: Db, claim: FingerprintClaim): Promise<boolean> {
  return (await claimFingerprintRow(trx, claim)).length > 0;
}

export function duplicateError(postId: number): ApiError {
  return new ApiError('duplicate_content', [detail('post_id', String(postId))]);
}

/**
 * Throws duplicate_content when a post with this content was created in the window. Returns
 * whether a row for this content exists at all (one from outside the window is replaced when the
 * new post's fingerprint is recorded).
 */
export async function assertNotDuplicate(
  trx: Db,
  storeId: number,
  fingerprint: string,
  now: number,
  exceptPostId?: number,
): Promise<boolean> {
  const existing = await findFingerprint(trx, storeId, fingerprint);
  if (existing && existing.created_at > now - DUPLICATE_WINDOW_MS && existing.post_id !== exceptPostId)
    throw duplicateError(existing.post_id);
  return existing !== undefined;
}

// Every create runs it, so it is compiled once (see queryTemplate).
const selectFingerprint = queryTemplate((db, $: { storeId: number; fingerprint: string }) =>
  db
    .selectFrom('content_fingerprints')
    .select(['post_id', 'created_at'])
    .where('store_id', '=', $.storeId)
    .where('fingerprint', '=', $.fingerprint),
);

export async function findFingerprint(
  db: Db,
  storeId: number,
  fingerprint: string,
): Promise<{ post_id: number; created_at: number } | undefined> {
  const [row] = await selectFingerprint(db, { storeId, fingerprint });
  return row;
}
