// Rows past their retention, deleted a bounded batch at a time: each batch is one short
// statement (its own transaction), so no lock is held for long and requests interleave.
import type { Db } from '../../db/database.js';
import { DAY_MS } from '../../lib/time.js';
import { advanceFeedHorizons, deleteExpiredEvents } from '../events/index.js';
import { DUPLICATE_WINDOW_MS } from '../posts/index.js';

/** Deletes up to `limit` rows of one kind that are past retention at `now`; returns how many. */
export type ExpiredRowBatch = (db: Db, now: number, limit: number) => Promise<number>;

/** Idempotency records past their 24 hours (expires_at is set from the retention when written). */
export const expiredIdempotencyRecords: ExpiredRowBatch = async (db, now, limit) => {
  const result = await db
    .deleteFrom('idempotency_records')
    .where((eb) =>
      eb(
        eb.refTuple('store_id', 'application', 'idem_key'),
        'in',
        eb
          .selectFrom('idempotency_records')
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
    .where((eb) =>
      eb(
        eb.refTuple('store_id', 'fingerprint'),
        'in',
        eb
          .selectFrom('content_fingerprints')
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
    .where('token_hash', 'in', (eb) =>
      eb.selectFrom('delete_confirmations').select('token_hash').where('expires_at', '<=', now).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
};

/** A finished webhook delivery (and, once none is left, its event) is kept this long after its last attempt. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * DAY_MS;

/**
 * Webhook deliveries that succeeded or failed more than 30 days ago (a delivery that never ran,
 * because its endpoint was disabled, counts from its creation). Pending ones always stay.
 */
export const expiredWebhookDeliveries: ExpiredRowBatch = async (db, now, limit) => {
  const before = now - WEBHOOK_DELIVERY_RETENTION_MS;
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '!=', 'pending')
        .where((w) => w(w.fn.coalesce('last_attempt_at', 'created_at'), '<=', before))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
};

/**
 * Webhook events no delivery refers to any more: feed events once past EVENT_RETENTION_DAYS
 * (`feedCutoff`), `webhook.test` events past the deliveries' 30 days (src/modules/events/event-retention.ts).
 */
export function expiredWebhookEvents(feedCutoff: (now: number) => number): ExpiredRowBatch {
  return async (db, now, limit) => {
    await advanceFeedHorizons(db, feedCutoff(now));
    return deleteExpiredEvents(db, now - WEBHOOK_DELIVERY_RETENTION_MS, limit);
  };
}
