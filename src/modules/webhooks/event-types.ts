// The events a webhook endpoint can receive. Their names are the audit actions of the same
// changes, plus `webhook.test`, which only POST /v1/webhooks/{id}/test sends.
export const WEBHOOK_EVENT_TYPES = [
  'post.created',
  'post.updated',
  'post.published',
  'post.scheduled',
  'post.unpublished',
  'post.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'image.uploaded',
  'image.deleted',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Subscribes an endpoint to every event type, including ones added later. */
export const ALL_EVENTS = '*';

export function isEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Whether an endpoint subscribed to `events` receives an event of `type`. */
export function subscribes(events: readonly string[], type: WebhookEventType): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}
