// The transactional outbox and the events feed. A change calls recordEvent with its own
// transaction: the event (its body exactly as it will be sent) commits or rolls back with the
// change, gets its place in the store's feed at commit (migration 0012; GET /v1/events), and one
// pending delivery per subscribed endpoint is queued beside it for the delivery worker (by the
// statement that queues every delivery: delivery-enqueue.ts).
// The two statements (the event, its deliveries) are written once here, as SQL that runs on its
// own (recordEvent) and inside a post's one-statement create on PostgreSQL (create-statement.ts).
import { sql, type RawBuilder } from 'kysely';
import type { Db, Engine } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';
import { raw, writeTemplate } from '../../db/query-template.js';
import { randomLowerAlnum } from '../../lib/crypto.js';
import { formatWithOffset } from '../../lib/time.js';
import type { Store } from '../stores/index.js';
import type { WebhookEventType } from './event-types.js';
import { enqueueDeliveries, enqueueSql, newDeliveryIdPrefix } from './delivery-enqueue.js';

const ID_RANDOM_LENGTH = 24;
export const newEventId = () => `msg_${randomLowerAlnum(ID_RANDOM_LENGTH)}`;

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

/**
 * A sample's row (POST /v1/webhooks/{id}/test with a type, migration 0018): marked, with no
 * sequence, so it stays out of the feed like a `webhook.test`. Built per call, never a template.
 */
function insertSampleEventSql(engine: Engine, $: EventRowArgs): RawBuilder<unknown> {
  return sql`INSERT INTO webhook_events (id, store_id, type, body, created_at, sample) VALUES (${$.id}, ${$.storeId}, ${$.type}, ${$.body}, ${$.at}, ${engine === 'postgres' ? sql`true` : sql`1`})`;
}

export interface SubscriberDeliveriesArgs {
  storeId: number;
  eventId: string;
  type: string;
  at: number;
  /** newDeliveryIdPrefix() */
  idPrefix: string;
}

/** A pending delivery of the event to each enabled endpoint of the store subscribed to its type (delivery-enqueue.ts). */
export function insertSubscriberDeliveriesSql(engine: Engine, $: SubscriberDeliveriesArgs): RawBuilder<unknown> {
  return enqueueSql(engine, {
    storeId: $.storeId,
    at: $.at,
    idPrefix: $.idPrefix,
    to: { kind: 'subscribers', eventId: $.eventId, type: $.type },
  });
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

/** An event's request body, exactly as every delivery of it sends it. */
export function eventBody(store: Store, type: WebhookEventType, at: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: formatWithOffset(at, store.utcOffset), data });
}

/**
 * Writes an event outside the content changes (a `webhook.test`, or a sample of a content event
 * type) and queues its delivery to `endpointId` alone, whatever the endpoint subscribes to. Neither
 * is in the events feed. Resolves with the delivery's id.
 */
export async function insertEndpointEvent(
  trx: Db,
  store: Store,
  type: WebhookEventType,
  at: number,
  data: unknown,
  endpointId: string,
): Promise<string> {
  const eventId = newEventId();
  const body = eventBody(store, type, at, data);
  const row = { id: eventId, storeId: store.id, type, body, at };
  if (type === 'webhook.test') await insertEventRow[engineOf(trx)](trx, row);
  else await insertSampleEventSql(engineOf(trx), row).execute(trx);
  const [deliveryId] = await enqueueDeliveries(trx, {
    storeId: store.id,
    at,
    idPrefix: newDeliveryIdPrefix(),
    to: { kind: 'endpoint', endpointId, eventId },
  });
  return deliveryId;
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
