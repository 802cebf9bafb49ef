// Keys close to their expiry: an integration whose key expires stops working, and the default
// lifetime is 365 days (KEY_DEFAULTS.lifetimeDays). The metric counts them in all stores, with no
// store label (docs/operations.md, "Labels are bounded"); the operator CLI names them per store
// (`blog-api key list --expiring`).
import type { Db } from '../../db/database.js';
import { DAY_MS } from '../../lib/time.js';

/** How far ahead "close to expiry" looks (docs/operations.md, deploy/alerts.yml). */
export const EXPIRY_WARNING_DAYS = 30;

/** Active (unrevoked, not yet expired) keys expiring within `days` of `now`, of one store or of all. */
export function expiringKeys(db: Db, now: number, days = EXPIRY_WARNING_DAYS, storeId?: number) {
  let query = db
    .selectFrom('api_keys')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', now + days * DAY_MS);
  if (storeId !== undefined) query = query.where('store_id', '=', storeId);
  return query;
}

/** How many keys of all stores expire within `days` of `now` (the metric's one number). */
export async function countKeysExpiring(db: Db, now: number, days = EXPIRY_WARNING_DAYS): Promise<number> {
  const row = await expiringKeys(db, now, days)
    .select((eb) => eb.fn.countAll().as('keys'))
    .executeTakeFirstOrThrow();
  return Number(row.keys);
}
