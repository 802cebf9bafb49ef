// The transactional outbox. A change that causes an event calls recordEvent with its own
// transaction: the event (its body exactly as it will be sent) and one pending delivery per
// subscribed endpoint commit or roll back with the change, and the delivery worker sends them
// later. A store with no endpoint listening pays one indexed read per change and builds nothing.
import type { Db } from '../../db/database.js';
import { queryTemplate } from '../../db/query-template.js';
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

/** The event's `data`: built only when some endpoint will receive it. */
export type EventData = () => unknown | Promise<unknown>;

/**
 * Records an event of `store` for every enabled endpoint subscribed to `type`, inside `trx`.
 * Nothing is recorded while the store's webhooks feature is off. Resolves with the event's id,
 * or null when no endpoint was listening.
 */
export async function recordEvent(trx: Db, store: Store, type: WebhookEventType, at: number, data: EventData): Promise<string | null> {
  if (!store.features.webhooks) return null;
  const endpoints = await listeningEndpoints(trx, { storeId: store.id });
  const targets = endpoints.filter((e) => subscribes(JSON.parse(e.events) as string[], type)).map((e) => e.id);
  if (targets.length === 0) return null;
  const [first] = await insertEvent(trx, store, type, at, await data(), targets);
  return first.eventId;
}

/**
 * Withdraws an event whose change was undone after it committed: the deliveries no worker has
 * claimed yet are removed, then the event once none is left. A delivery already claimed (being
 * sent, or sent) cannot be called back and stays.
 */
export async function withdrawEvent(trx: Db, eventId: string): Promise<void> {
  await trx.deleteFrom('webhook_deliveries').where('event_id', '=', eventId).where('status', '=', 'pending').where('attempts', '=', 0).where('lease_token', 'is', null).execute();
  await trx
    .deleteFrom('webhook_events')
    .where('id', '=', eventId)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries').select('id').where('event_id', '=', eventId))))
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
export async function insertEvent(trx: Db, store: Store, type: WebhookEventType, at: number, data: unknown, endpointIds: string[]): Promise<RecordedDelivery[]> {
  const eventId = newEventId();
  const due = (await storeQueueFull(trx, store.id)) ? null : at;
  const body = eventBody(store, type, at, data);
  await trx.insertInto('webhook_events').values({ id: eventId, store_id: store.id, type, body, created_at: at }).execute();
  const deliveries = endpointIds.map((endpointId) => ({ id: newDeliveryId(), endpointId, eventId }));
  await trx
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((d) => ({
        id: d.id,
        store_id: store.id,
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
