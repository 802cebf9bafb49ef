// The delivery backlog as the operator's metrics see it: deliveries due now and not yet sent, and
// how long the oldest of them has waited. A backlog that grows means the workers cannot keep up
// or cannot claim (docs/webhooks.md).
import type { Db } from '../../db/database.js';

export interface DeliveryBacklog {
  /** Pending deliveries whose next attempt is due. */
  due: number;
  /** Seconds since the oldest due delivery became due; 0 when none is. */
  oldestDueSeconds: number;
}

export async function deliveryBacklog(db: Db, now: number): Promise<DeliveryBacklog> {
  // The partial index webhook_deliveries_due (pending only) serves this.
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll().as('due'), eb.fn.min('next_attempt_at').as('oldest')])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  const due = Number(row?.due ?? 0);
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return { due, oldestDueSeconds: due === 0 || oldest === null ? 0 : Math.max(0, (now - oldest) / 1000) };
}
