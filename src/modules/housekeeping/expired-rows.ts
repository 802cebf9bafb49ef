// Rows past their retention, deleted a bounded batch at a time: each batch is one short
// statement (its own transaction), so no lock is held for long and requests interleave.
import type { Db } from '../../db/database.js';
import { DUPLICATE_WINDOW_MS } from '../posts/duplicate-window.js';

/** Deletes up to `limit` rows of one kind that are past retention at `now`; returns how many. */
export type ExpiredRowBatch = (db: Db, now: number, limit: number) => Promise<number>;

/** Idempotency records past their 24 hours (expires_at is set from the retention when written). */
export const expiredIdempotencyRecords: ExpiredRowBatch = async (db, now, limit) => {
  const result = await db
    .deleteFrom('idempotency_records')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('store_id', 'application', 'idem_key'),
        'in',
        selectFrom('idempotency_records')
          .select(['store_id', 'application', 'idem_key'])
          .where('expires_at', '<=', now)
          .limit(limit)
          .$asTuple('store_id', 'application', 'idem_key'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
};

/** Content fingerprints outside the duplicate window: they can no longer refuse a post. */
export const expiredContentFingerprints: ExpiredRowBatch = async (db, now, limit) => {
  const result = await db
    .deleteFrom('content_fingerprints')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('store_id', 'fingerprint'),
        'in',
        selectFrom('content_fingerprints')
          .select(['store_id', 'fingerprint'])
          .where('created_at', '<=', now - DUPLICATE_WINDOW_MS)
          .limit(limit)
          .$asTuple('store_id', 'fingerprint'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
};

/** Delete confirmation tokens past their expiry (they would be refused anyway). */
export const expiredDeleteTokens: ExpiredRowBatch = async (db, now, limit) => {
  const result = await db
    .deleteFrom('delete_confirmations')
    .where('token_hash', 'in', (eb) => eb.selectFrom('delete_confirmations').select('token_hash').where('expires_at', '<=', now).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
};
