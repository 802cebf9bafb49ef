// The transactional outbox and the events feed. A change calls recordEvent with its own
// transaction: the event (its body exactly as it will be sent) commits or rolls back with the
// change, gets its place in the store's feed at commit (migration 0012; GET /v1/events), and one
// pending delivery per subscribed endpoint is queued beside it for the delivery worker.
// The two statements (the event, its deliveries) are written once here, as SQL that runs on its
// own (recordEvent) and inside a post's one-statement create on PostgreSQL (create-statement.ts).
import { sql, type RawBuilder } from 'kysely';
import type { Db, Engine } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';
import { raw, writeTemplate } from '../../db/query-template.js';
import { randomLowerAlnum } from '../../lib/crypto.js';
import { formatWithOffset } from '../../lib/time.js';
import type { Store } from '../stores/index.js';
import { subscribesSql, type WebhookEventType } from './event-types.js';
import { STORE_QUEUE_LIMIT, storeQueueFull } from './delivery-queue.js';

const ID_RANDOM_LENGTH = 24;
export const newEventId = () => `msg_${randomLowerAlnum(ID_RANDOM_LENGTH)}`;
/** A delivery id: `whd_` and 24 characters of [a-z0-9] (docs/webhooks.md). */
export const newDeliveryId = () => `whd_${randomLowerAlnum(ID_RANDOM_LENGTH)}`;

// Deliveries queued by one statement (an event's endpoints, a replay's events) are numbered in
// SQL: their ids are a prefix drawn once for the statement (`whd_` and 21 random characters)
// and the row's number in base 36 in three characters, so they have newDeliveryId()'s format
// on both engines. Three characters number 46,656 rows, more than a replay queues.
const ORDINAL_DIGITS = 3;
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
export const newDeliveryIdPrefix = () => `whd_${randomLowerAlnum(ID_RANDOM_LENGTH - ORDINAL_DIGITS)}`;

/** The id of the delivery numbered `ordinal` (from 0) of a statement whose prefix is `prefix`. */
export function deliveryIdSql(prefix: unknown, ordinal: RawBuilder<unknown>): RawBuilder<string> {
  const digits = [2, 1, 0].map(
    (place) => sql`substr(${sql.lit(BASE36)}, CAST((${ordinal} / ${sql.lit(36 ** place)}) % 36 + 1 AS integer), 1)`,
  );
  return sql<string>`(CAST(${prefix} AS text) || ${sql.join(digits, sql` || `)})`;
}

/** Due now, or held (no due time) while the store's queue is full (delivery-queue.ts). */
export function dueUnlessQueueFullSql(storeId: unknown, at: unknown): RawBuilder<number | null> {
  return sql<
    number | null
  >`CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries WHERE store_id = ${storeId} AND status = 'pending' AND next_attempt_at IS NOT NULL LIMIT ${sql.lit(STORE_QUEUE_LIMIT)}) queued) >= ${sql.lit(STORE_QUEUE_LIMIT)}
    THEN NULL ELSE CAST(${at} AS bigint) END`;
}

export interface EventRowArgs {
  id: string;
  storeId: number;
  type: string;
  body: string;
  at: number;
}

/**
 * The event's row. Its place in the feed (migration 0012): PostgreSQL numbers the event when it
 * commits (a deferred trigger); SQLite, with one writer at a time, takes the next number in the
 * insert itself (a trigger then moves the store's counter).
 */
export function insertEventSql(engine: Engine, $: EventRowArgs): RawBuilder<unknown> {
  if (engine === 'postgres') {
    return sql`INSERT INTO webhook_events (id, store_id, type, body, created_at) VALUES (${$.id}, ${$.storeId}, ${$.type}, ${$.body}, ${$.at})`;
  }
  return sql`INSERT INTO webhook_events (id, store_id, type, body, created_at, sequence) VALUES (${$.id}, ${$.storeId}, ${$.type}, ${$.body}, ${$.at},
    CASE WHEN ${$.type} = 'webhook.test' THEN NULL ELSE COALESCE((SELECT last_sequence FROM event_sequences WHERE store_id = ${$.storeId}), 0) + 1 END)`;
}

export interface SubscriberDeliveriesArgs {
  storeId: number;
  eventId: string;
  type: string;
  at: number;
  /** newDeliveryIdPrefix() */
  idPrefix: string;
}

/**
 * A pending delivery of the event to each enabled endpoint of the store subscribed to its type.
 * A delivery's number is its endpoint's place among the store's endpoints (at most
 * ENDPOINTS_PER_STORE): unique in the statement without a window function, whose sort SQLite
 * runs through a temporary b-tree on every create.
 */
export function insertSubscriberDeliveriesSql(engine: Engine, $: SubscriberDeliveriesArgs): RawBuilder<unknown> {
  const place = sql`(SELECT count(*) FROM webhook_endpoints o WHERE o.store_id = e.store_id AND o.id < e.id)`;
  return sql`
    INSERT INTO webhook_deliveries (id, store_id, endpoint_id, event_id, status, attempts, last_attempt_at, last_response_status, next_attempt_at, lease_token, lease_until, created_at)
    SELECT ${deliveryIdSql($.idPrefix, place)}, e.store_id, e.id, CAST(${$.eventId} AS text), 'pending', 0, NULL, NULL, ${dueUnlessQueueFullSql($.storeId, $.at)}, NULL, NULL, CAST(${$.at} AS bigint)
    FROM webhook_endpoints e
    WHERE e.store_id = ${$.storeId} AND e.enabled = 1 AND ${subscribesSql(engine, sql`e.events`, $.type)}`;
}

// Every content write runs these, so they are compiled once (see queryTemplate).
const insertEventRow = {
  postgres: writeTemplate((db, $: EventRowArgs) => raw(db, insertEventSql('postgres', $))),
  sqlite: writeTemplate((db, $: EventRowArgs) => raw(db, insertEventSql('sqlite', $))),
};
const insertSubscriberDeliveries = {
  postgres: writeTemplate((db, $: SubscriberDeliveriesArgs) => raw(db, insertSubscriberDeliveriesSql('postgres', $))),
  sqlite: writeTemplate((db, $: SubscriberDeliveriesArgs) => raw(db, insertSubscriberDeliveriesSql('sqlite', $))),
};
const engineOf = (db: Db): Engine => (isPostgres(db) ? 'postgres' : 'sqlite');

/** Writes an event's row and, unless `deliveries` is null (webhooks off), its deliveries to the subscribed endpoints. */
export async function writeEvent(
  trx: Db,
  event: EventRowArgs,
  deliveries: SubscriberDeliveriesArgs | null,
): Promise<void> {
  const engine = engineOf(trx);
  await insertEventRow[engine](trx, event);
  if (deliveries) await insertSubscriberDeliveries[engine](trx, deliveries);
}

/** The event's `data`, or a promise of it. */
export type EventData = () => unknown;

/**
 * Records an event of `store` inside `trx`: always in the store's events feed, and as a delivery
 * to every enabled endpoint subscribed to `type` while the store's webhooks feature is on.
 * Resolves with the event's id.
 */
export async function recordEvent(
  trx: Db,
  store: Store,
  type: WebhookEventType,
  at: number,
  data: EventData,
): Promise<string> {
  const id = newEventId();
  const body = eventBody(store, type, at, await data());
  await writeEvent(
    trx,
    { id, storeId: store.id, type, body, at },
    store.features.webhooks ? { storeId: store.id, eventId: id, type, at, idPrefix: newDeliveryIdPrefix() } : null,
  );
  return id;
}

/**
 * Withdraws the deliveries of an event whose change was undone after it committed, where no
 * worker has claimed them yet; a delivery already claimed (being sent, or sent) cannot be called
 * back and stays. The event stays in the feed, where a consumer may already have read it: the
 * caller records the event that undoes it.
 */
export async function withdrawDeliveries(trx: Db, eventId: string): Promise<void> {
  await trx
    .deleteFrom('webhook_deliveries')
    .where('event_id', '=', eventId)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('lease_token', 'is', null)
    .execute();
}

export interface RecordedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
}

/** An event's request body, exactly as every delivery of it sends it. */
export function eventBody(store: Store, type: WebhookEventType, at: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: formatWithOffset(at, store.utcOffset), data });
}

/**
 * Writes one event and a pending delivery of it to each of `endpointIds`, due at once, or held
 * while the store's queue is full (delivery-queue.ts).
 */
export async function insertEvent(
  trx: Db,
  store: Store,
  type: WebhookEventType,
  at: number,
  data: unknown,
  endpointIds: string[],
): Promise<{ eventId: string; deliveries: RecordedDelivery[] }> {
  const eventId = newEventId();
  const body = eventBody(store, type, at, data);
  await insertEventRow[engineOf(trx)](trx, { id: eventId, storeId: store.id, type, body, at });
  return { eventId, deliveries: await insertDeliveries(trx, store.id, eventId, endpointIds, at) };
}

/** A pending delivery of an event already recorded to each of `endpointIds`, due at `at` (or held). */
export async function insertDeliveries(
  trx: Db,
  storeId: number,
  eventId: string,
  endpointIds: string[],
  at: number,
): Promise<RecordedDelivery[]> {
  if (endpointIds.length === 0) return [];
  // Held (no due time) while the store's queue is full; delivery-queue.ts releases it later.
  const due = (await storeQueueFull(trx, storeId)) ? null : at;
  const deliveries = endpointIds.map((endpointId) => ({ id: newDeliveryId(), endpointId, eventId }));
  await trx
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((d) => ({
        id: d.id,
        store_id: storeId,
        endpoint_id: d.endpointId,
        event_id: eventId,
        status: 'pending' as const,
        attempts: 0,
        last_attempt_at: null,
        last_response_status: null,
        next_attempt_at: due,
        lease_token: null,
        lease_until: null,
        created_at: at,
      })),
    )
    .execute();
  return deliveries;
}

/**
 * Keeps the due time of a post's `post.published` event in step with its publish time: a
 * future time is waited for (the schedule scan sends the event when it arrives); anything else
 * clears the wait. Call it in the transaction that sets `published_at`.
 */
export async function setPublishSchedule(
  trx: Db,
  storeId: number,
  postId: number,
  publishedAt: number | null,
  now: number,
): Promise<void> {
  if (publishedAt !== null && publishedAt > now) {
    await trx
      .insertInto('webhook_schedules')
      .values({ post_id: postId, store_id: storeId, due_at: publishedAt })
      .onConflict((oc) => oc.column('post_id').doUpdateSet({ due_at: publishedAt }))
      .execute();
  } else {
    await trx.deleteFrom('webhook_schedules').where('post_id', '=', postId).execute();
  }
}
