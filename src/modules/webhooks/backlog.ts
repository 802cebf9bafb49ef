// The delivery backlog as the operator's metrics see it: deliveries due now and not yet sent, and
// how long the oldest of them has waited. A backlog that grows means the workers cannot keep up
// or cannot claim (docs/webhooks.md).
import type { Db } from '../../db/database.js';
import { dueDeliveryStats } from './webhook-repository.js';

export interface DeliveryBacklog {
  /** Pending deliveries whose next attempt is due. */
  due: number;
  /** Seconds since the oldest due delivery became due; 0 when none is. */
  oldestDueSeconds: number;
}

export async function deliveryBacklog(db: Db, now: number): Promise<DeliveryBacklog> {
  const { due, oldest } = await dueDeliveryStats(db, now);
  return { due, oldestDueSeconds: due === 0 || oldest === null ? 0 : Math.max(0, (now - oldest) / 1000) };
}
