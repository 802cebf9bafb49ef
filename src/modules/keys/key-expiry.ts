// Keys close to their expiry: an integration whose key expires stops working, and the default
// lifetime is 365 days (KEY_DEFAULTS.lifetimeDays). The metric counts them in all stores, with no
// store label (docs/operations.md, "Labels are bounded"); the operator CLI names them per store
// (`blog-api key list --expiring`).
import type { Db } from '../../db/database.js';
import { DAY_MS } from '../../lib/time.js';
import { countExpiringKeys } from './key-repository.js';

/** How far ahead "close to expiry" looks (docs/operations.md, deploy/alerts.yml). */
export const EXPIRY_WARNING_DAYS = 30;

/** How many keys of all stores expire within `days` of `now` (the metric's one number). */
export async function countKeysExpiring(db: Db, now: number, days = EXPIRY_WARNING_DAYS): Promise<number> {
  return countExpiringKeys(db, now, now + days * DAY_MS);
}
