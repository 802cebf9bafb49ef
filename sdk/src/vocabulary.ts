// The API's closed lists that its OpenAPI document gives as plain strings: scopes, audit
// actions, webhook event types, the page size range. test/sdk/vocabulary.test.ts fails when the
// service's own lists differ from these.
import type { EventTypeFilter } from './event-types.js';

/** The /v1 API version this SDK release was written against (also `api_version` of `me()`). */
export const API_VERSION = '2026-09-14';

export const SCOPES = [
  'read_published',
  'read_blog',
  'write_blog',
  'publish_blog',
  'write_media',
  'read_audit',
  'manage_webhooks',
] as const;
/** A key's permission. */
export type Scope = (typeof SCOPES)[number];

/** The changes to a store's content; webhooks announce the same actions as events. */
const CONTENT_ACTIONS = [
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
] as const;

export const AUDIT_ACTIONS = [
  ...CONTENT_ACTIONS,
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
] as const;
/** What an audit event records. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const WEBHOOK_EVENT_TYPES = [...CONTENT_ACTIONS, 'webhook.test'] as const;
/** An event a webhook endpoint can receive. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
const EVENT_RESOURCES = new Set(CONTENT_ACTIONS.map((type) => type.slice(0, type.indexOf('.'))));

/** Whether `value` is an item of the events feed's `types` filter: an event type, or `<resource>.*`. */
export function isEventTypeFilter(value: string): value is EventTypeFilter {
  return (
    (CONTENT_ACTIONS as readonly string[]).includes(value) ||
    (value.endsWith('.*') && EVENT_RESOURCES.has(value.slice(0, -2)))
  );
}
/** What an endpoint subscribes to: event types, or `'*'` for every type, including ones added later. */
export type WebhookSubscription = WebhookEventType | '*';

type Range<N extends number, Acc extends number[] = []> = Acc['length'] extends N
  ? Acc[number]
  : Range<N, [...Acc, Acc['length']]>;
/** A page size: 1 to 50 (the service's default is 20). */
export type PageLimit = Exclude<Range<51>, 0>;
