// The events the service sends, typed per type from the OpenAPI document's webhook bodies: one
// discriminated union on `type`, so `switch (event.type)` narrows `data` without a cast. The
// feed (GET /v1/events) carries the same bodies plus its own fields, so a FeedEvent is also a
// WebhookEvent and one handler serves both.
import type { webhooks } from './generated/openapi.js';

type EventBody<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];

/** Every event a webhook endpoint receives, discriminated by `type`. */
export type WebhookEvent = { [T in keyof webhooks]: EventBody<T> }[keyof webhooks];

/** The webhook event of one type, e.g. `WebhookEventOf<'post.published'>` (its `data` is a Post). */
export type WebhookEventOf<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>;

/** The types the events feed carries: every webhook event type but `webhook.test`. */
export type FeedEventType = Exclude<WebhookEvent['type'], 'webhook.test'>;

/** What the feed adds to the webhook body. */
interface FeedFields {
  /** Starts with msg_; the `webhook-id` header of every delivery of this event. */
  id: string;
  /** The store's handle. */
  handle: string;
  /** The event's place in the store's feed: only increases, in commit order. */
  sequence: number;
}

/** An event of the store's events feed: the webhook event plus its id, the store's handle and its sequence. */
export type FeedEvent = { [T in FeedEventType]: EventBody<T> & FeedFields }[FeedEventType];

/** The feed event of one type, e.g. `FeedEventOf<'post.deleted'>`. */
export type FeedEventOf<T extends FeedEventType> = Extract<FeedEvent, { type: T }>;

/** What events are about: `post`, `category`, `image`. */
export type EventResource = FeedEventType extends `${infer R}.${string}` ? R : never;

/** An item of a `types` filter: an event type, or `<resource>.*` for every type of a resource. */
export type EventTypeFilter = FeedEventType | `${EventResource}.*`;

/** The feed events a filter lets through: `'post.*'` gives the post events, `'post.deleted'` that one. */
export type FeedEventMatching<F extends EventTypeFilter> = F extends `${infer R}.*`
  ? Extract<FeedEvent, { type: `${R}.${string}` }>
  : Extract<FeedEvent, { type: F }>;
