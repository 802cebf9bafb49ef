// The transactional outbox and the events feed. A change calls recordEvent with its own
// transaction: the event (its body exactly as it will be sent) commits or rolls back with the
// change, gets its place in the store's feed at commit (migration 0012; GET /v1/events), and one
// pending delivery per subscribed endpoint is queued beside it for the delivery worker.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';
import { queryTemplate, writeTemplate } from '../../db/query-template.js';
import { randomLowerAlnum } from '../../lib/crypto.js';
import { formatWithOffset } from '../../lib/time.js';
import type { Store } from '../stores/index.js';
import { subscribes, type WebhookEventType } from './event-types.js';
import { storeQueueFull } from './delivery-queue.js';

const ID_RANDOM_LENGTH = 24;
export const newEventId = () => `msg_${randomLowerAlnum(ID_RANDOM_LENGTH)}`;
export const newDeliveryId = () => `whd_${randomLowerAlnum(ID_RANDOM_LENGTH)}`;

// Runs with every post, category and image write, so it is compiled once (see queryTemplate).
const listeningEndpoints = queryTemplate((db, $: { storeId: number }) =>
  db.selectFrom('webhook_endpoints').select(['id', 'events']).where('store_id', '=', $.storeId).where('enabled', '=', 1),
);

// Every content write records one, so it is compiled once too. The feed's sequence (migration
// 0012): PostgreSQL numbers the event when it commits (a deferred trigger); SQLite, with one
// writer at a time, takes the next number in the insert itself.
interface EventRowArgs {
  id: string;
  storeId: number;
  type: string;
  body: string;
  at: number;
}
const insertEventRowPostgres = writeTemplate((db, $: EventRowArgs) =>
  db.insertInto('webhook_events').values({ id: $.id, store_id: $.storeId, type: $.type, body: $.body, created_at: $.at }),
);
const insertEventRowSqlite = writeTemplate((db, $: EventRowArgs) =>
  db.insertInto('webhook_events').values({
    id: $.id,
    store_id: $.storeId,
    type: $.type,
    body: $.body,
    created_at: $.at,
    sequence: sql<number | null>`CASE WHEN ${$.type} = 'webhook.test' THEN NULL
      ELSE COALESCE((SELECT last_sequence FROM event_sequences WHERE store_id = ${$.storeId}), 0) + 1 END`,
  }),
);
const insertEventRow = (db: Db, args: EventRowArgs) => (isPostgres(db) ? insertEventRowPostgres(db, args) : insertEventRowSqlite(db, args));

/** The event's `data`, or a promise of it. */
export type EventData = () => unknown;

/**
 * Records an event of `store` inside `trx`: always in the store's events feed, and as a delivery
 * to every enabled endpoint subscribed to `type` while the store's webhooks feature is on.
 * Resolves with the event's id.
 */
export async function recordEvent(trx: Db, store: Store, type: WebhookEventType, at: number, data: EventData): Promise<string> {
  let targets: string[] = [];
  if (store.features.webhooks) {
    const endpoints = await listeningEndpoints(trx, { storeId: store.id });
    targets = endpoints.filter((e) => subscribes(JSON.parse(e.events) as string[], type)).map((e) => e.id);
  }
  return (await insertEvent(trx, store, type, at, await data(), targets)).eventId;
}

/**
 * Withdraws the deliveries of an event whose change was undone after it committed, where no
 * worker has claimed them yet; a delivery already claimed (being sent, or sent) cannot be called
 * back and stays. The event stays in the feed, where a consumer may already have read it: the
 * caller records the event that undoes it.
 */
export async function withdrawDeliveries(trx: Db, eventId: string): Promise<void> {
  await trx.deleteFrom('webhook_deliveries').where('event_id', '=', eventId).where('status', '=', 'pending').where('attempts', '=', 0).where('lease_token', 'is', null).execute();
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
export async function insertEvent(trx: Db, store: Store, type: WebhookEventType, at: number, data: unknown, endpointIds: string[]): Promise<{ eventId: string; deliveries: RecordedDelivery[] }> {
  const eventId = newEventId();
  const body = eventBody(store, type, at, data);
  await insertEventRow(trx, { id: eventId, storeId: store.id, type, body, at });
  return { eventId, deliveries: await insertDeliveries(trx, store.id, eventId, endpointIds, at) };
}

/** A pending delivery of an event already recorded to each of `endpointIds`, due at `at` (or held). */
export async function insertDeliveries(trx: Db, storeId: number, eventId: string, endpointIds: string[], at: number): Promise<RecordedDelivery[]> {
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
export async function setPublishSchedule(trx: Db, storeId: number, postId: number, publishedAt: number | null, now: number): Promise<void> {
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
