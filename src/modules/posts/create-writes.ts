// What a post's create writes besides the post itself, worked out once for both engines: the
// rows each rule writes (the duplicate window's fingerprint, the audit event, the day's quota
// unit, the `post.created` event and its deliveries, the idempotent completion). PostgreSQL
// sends them as one statement (create-statement.ts), SQLite runs them in a transaction
// (create-transaction.ts); both use the same SQL of each rule, from the rule's own module.
import type { AuditRow } from '../audit/index.js';
import type { StoredResponse } from '../idempotency/index.js';
import { newDeliveryIdPrefix } from '../events/index.js';
import { newEventId, type EventRowArgs, type SubscriberDeliveriesArgs } from '../events/index.js';
import type { FingerprintClaim } from './duplicate-window.js';
import type { NewPost } from './post-repository.js';

export interface CreateWrites extends NewPost {
  categoryIds: number[];
  /** The post's search text (post-search.ts). */
  searchText: string;
  fingerprint: string;
  audit: { keyId: string | null; application: string | null; requestId: string | null; changes: string };
  quota: { day: string; limit: number };
  /** Whether the store's webhooks are on: the event is always in the feed, but deliveries are queued only then. */
  deliver: boolean;
}

/** The post as created, once its id is known. */
export interface CreatedPost {
  id: number;
  /** The `post.created` event's body (event-outbox.ts eventBody). */
  eventBody: string;
  /** The response stored for replays of an idempotent request. */
  response: StoredResponse | null;
}

export interface CreateRows {
  fingerprint: FingerprintClaim;
  audit: AuditRow;
  quota: { storeId: number; kind: 'posts'; day: string; limit: number };
  event: EventRowArgs;
  /** Null when the store's webhooks are off. */
  deliveries: SubscriberDeliveriesArgs | null;
  completion: StoredResponse | null;
}

export function createRows(w: CreateWrites, post: CreatedPost): CreateRows {
  const event: EventRowArgs = {
    id: newEventId(),
    storeId: w.storeId,
    type: 'post.created',
    body: post.eventBody,
    at: w.now,
  };
  return {
    fingerprint: { storeId: w.storeId, fingerprint: w.fingerprint, postId: post.id, now: w.now },
    audit: {
      storeId: w.storeId,
      occurredAt: w.now,
      action: 'post.created',
      resourceType: 'post',
      resourceId: String(post.id),
      ...w.audit,
    },
    quota: { storeId: w.storeId, kind: 'posts', day: w.quota.day, limit: w.quota.limit },
    event,
    deliveries: w.deliver
      ? { storeId: w.storeId, eventId: event.id, type: event.type, at: w.now, idPrefix: newDeliveryIdPrefix() }
      : null,
    completion: post.response,
  };
}
