// Each store's queue of deliveries is bounded (docs/webhooks.md, "Fairness"): beyond
// STORE_QUEUE_LIMIT pending deliveries with a due time, a new delivery is recorded held (pending,
// no `next_attempt_at`): its event is kept, nothing is lost, and the worker releases held
// deliveries oldest first as the store's queue drains. The bound is read here only: a new
// delivery takes the room (delivery-enqueue.ts), releaseHeld fills it.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';

export const STORE_QUEUE_LIMIT = 1000;

/**
 * How many more deliveries the store's queue takes with a due time now (0 when full). Reads at
 * most STORE_QUEUE_LIMIT index entries.
 */
export function queueRoomSql(storeId: unknown): RawBuilder<number | string> {
  return sql<number | string>`(${sql.lit(STORE_QUEUE_LIMIT)} - (SELECT count(*) FROM (
    SELECT 1 FROM webhook_deliveries WHERE store_id = ${storeId} AND status = 'pending' AND next_attempt_at IS NOT NULL LIMIT ${sql.lit(STORE_QUEUE_LIMIT)}
  ) queued))`;
}

/** Gives held deliveries a due time, oldest first, while their store's queue has room. */
export async function releaseHeld(db: Db, now: number): Promise<number> {
  const stores = await db
    .selectFrom('webhook_deliveries')
    .select('store_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('next_attempt_at', 'is', null)
    .execute();
  let released = 0;
  for (const { store_id: storeId } of stores) {
    const { rows } = await sql<{ room: number | string }>`SELECT ${queueRoomSql(storeId)} AS room`.execute(db);
    const room = Number(rows[0].room);
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
