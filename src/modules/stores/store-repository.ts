// Plain data access for stores; takes `db` or a transaction. No rules here: the service decides.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { StoresTable } from '../../db/schema.js';

export type StoreRow = Selectable<StoresTable>;

export function insertStore(db: Db, row: Insertable<StoresTable>): Promise<StoreRow> {
  return db.insertInto('stores').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateStore(trx: Db, handle: string, patch: Updateable<StoresTable>): Promise<StoreRow | undefined> {
  return trx.updateTable('stores').set(patch).where('handle', '=', handle).returningAll().executeTakeFirst();
}

/** The store's waiting deliveries become failed, never to be retried. */
export async function failPendingDeliveries(trx: Db, storeId: number): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null })
    .where('store_id', '=', storeId)
    .where('status', '=', 'pending')
    .execute();
}

export function findStoreByHandle(db: Db, handle: string): Promise<StoreRow | undefined> {
  return db.selectFrom('stores').selectAll().where('handle', '=', handle).executeTakeFirst();
}

export function findStoreById(db: Db, id: number): Promise<StoreRow | undefined> {
  return db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countStores(db: Db): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
