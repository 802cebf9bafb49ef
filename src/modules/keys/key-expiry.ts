// Keys close to their expiry, counted per store for the operator's metrics: an integration whose
// key expires stops working, and the default lifetime is 365 days (KEY_DEFAULTS.lifetimeDays).
import type { Db } from '../../db/database.js';

/** How far ahead "close to expiry" looks (docs/operations.md, deploy/alerts.yml). */
export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

/** Store handle → active (unrevoked, not yet expired) keys expiring within `days` of `now`. */
export async function keysExpiringByStore(
  db: Db,
  now: number,
  days = EXPIRY_WARNING_DAYS,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('stores', 'stores.id', 'api_keys.store_id')
    .select(['stores.handle as handle', (eb) => eb.fn.countAll().as('keys')])
    .where('api_keys.revoked_at', 'is', null)
    .where('api_keys.expires_at', '>', now)
    .where('api_keys.expires_at', '<=', now + days * DAY_MS)
    .groupBy('stores.handle')
    .execute();
  return new Map(rows.map((row) => [row.handle, Number(row.keys)]));
}
