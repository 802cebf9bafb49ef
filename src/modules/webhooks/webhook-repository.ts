// Plain data access for webhook endpoints and the deliveries list; takes `db` or a transaction.
// No rules here: limits, event lists, URLs and secrets are decided by the service.
import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';
import { filterDeliveries, type DeliveryFilters } from './delivery-filters.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export function listEndpoints(db: Db, storeId: number): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('store_id', '=', storeId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The endpoint of this store; with `lock`, locked on PostgreSQL until the transaction ends (SQLite has one writer at a time). */
export function findEndpoint(db: Db, storeId: number, id: string, lock = false): Promise<EndpointRow | undefined> {
  let q = db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('store_id', '=', storeId);
  if (lock && isPostgres(db)) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * How many endpoints the store has. On PostgreSQL the store's row is locked first, so concurrent
 * creates of one store queue on it and a count stays true until the transaction ends.
 */
export async function countEndpointsLocked(trx: Db, storeId: number): Promise<number> {
  if (isPostgres(trx)) await trx.selectFrom('stores').select('id').where('id', '=', storeId).forUpdate().execute();
  const count = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('store_id', '=', storeId)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

export async function insertEndpoint(trx: Db, row: EndpointRow): Promise<void> {
  await trx.insertInto('webhook_endpoints').values(row).execute();
}

/** Changes the endpoint of this store (null: there is none); `storeId` null: of any store. */
export function updateEndpoint(
  trx: Db,
  storeId: number | null,
  id: string,
  change: Updateable<WebhookEndpointsTable>,
): Promise<EndpointRow | undefined> {
  let q = trx.updateTable('webhook_endpoints').set(change).where('id', '=', id);
  if (storeId !== null) q = q.where('store_id', '=', storeId);
  return q.returningAll().executeTakeFirst();
}

/** Deletes the endpoint and its deliveries; false when the store has no such endpoint. */
export async function deleteEndpoint(trx: Db, storeId: number, id: string): Promise<boolean> {
  await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).where('store_id', '=', storeId).execute();
  const deleted = await trx
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

/** What an operator's answer names the endpoint's store by. */
export function findStoreHandle(db: Db, storeId: number): Promise<{ handle: string; utc_offset: string }> {
  return db.selectFrom('stores').select(['handle', 'utc_offset']).where('id', '=', storeId).executeTakeFirstOrThrow();
}

/**
 * Why a pending delivery is not being sent (docs/webhooks.md, "Fairness"), for a query that joins
 * the delivery as `d` and its endpoint as `e`.
 */
export function waitingReason(now: number) {
  return sql<'store_queue_full' | 'circuit_open' | null>`case
    when d.status = 'pending' and d.next_attempt_at is null then 'store_queue_full'
    when d.status = 'pending' and e.circuit_open_until > ${now} then 'circuit_open'
    else null end`.as('waiting_reason');
}

function deliveryRows(db: Db, storeId: number, now: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.event_id',
      'ev.type as event_type',
      'd.status',
      'd.attempts',
      'd.last_attempt_at',
      'd.last_response_status',
      'd.next_attempt_at',
      'd.created_at',
    ])
    .select(waitingReason(now))
    .where('d.store_id', '=', storeId);
}

export type DeliveryListRow = Awaited<ReturnType<ReturnType<typeof deliveryRows>['execute']>>[number];

export async function findDelivery(
  db: Db,
  storeId: number,
  id: string,
  now: number,
): Promise<DeliveryListRow | undefined> {
  const [row] = await deliveryRows(db, storeId, now).where('d.id', '=', id).execute();
  return row;
}

/** One delivery of an endpoint with what a retry needs (its origin and lease), for the detail and recovery. */
export function findEndpointDelivery(db: Db, storeId: number, endpointId: string, deliveryId: string, now: number) {
  return deliveryRows(db, storeId, now)
    .select(['d.retry_of', 'd.lease_token', 'd.lease_until'])
    .where('d.id', '=', deliveryId)
    .where('d.endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

export interface DeliveryPage {
  storeId: number;
  endpointId: string;
  filters: DeliveryFilters;
  /** Continue after this (created_at, id) position, newest first. */
  after: { createdAt: number; id: string } | null;
  limit: number;
  now: number;
}

/** A page of the endpoint's deliveries, newest first; throws validation_failed for an unknown event type filter. */
export function listDeliveries(db: Db, page: DeliveryPage): Promise<DeliveryListRow[]> {
  let q = filterDeliveries(
    deliveryRows(db, page.storeId, page.now).where('d.endpoint_id', '=', page.endpointId),
    page.filters,
  );
  const { after } = page;
  if (after) q = q.where((eb) => eb(eb.refTuple('d.created_at', 'd.id'), '<', eb.tuple(after.createdAt, after.id)));
  return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(page.limit).execute();
}

/** How many pending deliveries are due at `now`, and the earliest due time among them (backlog.ts). */
export async function dueDeliveryStats(db: Db, now: number): Promise<{ due: number; oldest: number | null }> {
  // The partial index webhook_deliveries_due (pending only) serves this.
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll().as('due'), eb.fn.min('next_attempt_at').as('oldest')])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return { due: Number(row?.due ?? 0), oldest };
}

/** An answer closes the endpoint's circuit and clears its count of timeouts in a row (circuit-breaker.ts). */
export async function closeCircuit(trx: Db, endpointId: string): Promise<void> {
  await trx
    .updateTable('webhook_endpoints')
    .set({ consecutive_timeouts: 0, circuit_open_until: null })
    .where('id', '=', endpointId)
    .where((eb) => eb.or([eb('consecutive_timeouts', '>', 0), eb('circuit_open_until', 'is not', null)]))
    .execute();
}

/** A timeout counts one more in a row; at `threshold` of them the circuit opens until `openUntil`. */
export async function countTimeout(trx: Db, endpointId: string, threshold: number, openUntil: number): Promise<void> {
  await trx
    .updateTable('webhook_endpoints')
    .set((eb) => ({ consecutive_timeouts: eb('consecutive_timeouts', '+', 1) }))
    .where('id', '=', endpointId)
    .execute();
  await trx
    .updateTable('webhook_endpoints')
    .set({ circuit_open_until: openUntil })
    .where('id', '=', endpointId)
    .where('consecutive_timeouts', '>=', threshold)
    .execute();
}
