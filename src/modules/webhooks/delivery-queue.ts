// Each store's queue of deliveries is bounded (docs/webhooks.md, "Fairness"): beyond
// STORE_QUEUE_LIMIT pending deliveries with a due time, a new delivery is recorded held (pending,
// no `next_attempt_at`): its event is kept, nothing is lost, and the worker releases held
// deliveries oldest first as the store's queue drains.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export const STORE_QUEUE_LIMIT = 1000;

/** Whether the store's queue is full: a new delivery is held. Reads at most STORE_QUEUE_LIMIT index entries. */
export async function storeQueueFull(trx: Db, storeId: number, limit = STORE_QUEUE_LIMIT): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM (
      SELECT 1 FROM webhook_deliveries WHERE store_id = ${storeId} AND status = 'pending' AND next_attempt_at IS NOT NULL LIMIT ${limit}
    ) queued`.execute(trx);
  return Number(rows[0].n) >= limit;
}

/** Gives held deliveries a due time, oldest first, while their store's queue has room. */
export async function releaseHeld(db: Db, now: number, limit = STORE_QUEUE_LIMIT): Promise<number> {
  const stores = await db
    .selectFrom('webhook_deliveries')
    .select('store_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('next_attempt_at', 'is', null)
    .execute();
  let released = 0;
  for (const { store_id: storeId } of stores) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*) AS n FROM (
        SELECT 1 FROM webhook_deliveries WHERE store_id = ${storeId} AND status = 'pending' AND next_attempt_at IS NOT NULL LIMIT ${limit}
      ) queued`.execute(db);
    const room = limit - Number(rows[0].n);
    if (room <= 0) continue;
    const oldest = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('store_id', '=', storeId)
      .where('status', '=', 'pending')
      .where('next_attempt_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(room);
    const updated = await db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now })
      .where('id', 'in', oldest)
      .where('next_attempt_at', 'is', null)
      .executeTakeFirst();
    released += Number(updated.numUpdatedRows);
  }
  return released;
}
