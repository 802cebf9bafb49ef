// The API's objects as this SDK returns and takes them: the generated schemas, with the closed
// lists of vocabulary.ts in place of their plain strings, and posts carrying their ETag.
import type { components, operations } from './generated/openapi.js';
import type { FeedEvent } from './event-types.js';
import type { AuditAction, PageLimit, Scope, WebhookEventType, WebhookSubscription } from './vocabulary.js';

type Schemas = components['schemas'];
/** T with the fields of R replaced by R's. */
type With<T, R> = Omit<T, keyof R> & R;
type Query<Q> = With<Q, { /** Items per page: 1 to 50 (default 20). */ limit?: PageLimit }>;

/**
 * A post as the service answered it, with the ETag that came with it. `etag` is a plain field,
 * so it survives a spread or `structuredClone`: pass the post (or a copy) back as `ifMatch`.
 */
export type Post = Schemas['Post'] & {
  /** The ETag header of the answer that carried this post (null only if a proxy removed it). */
  etag: string | null;
};
export type PostListItem = Schemas['PostListItem'];
export type PostPage = Schemas['PostPage'];
export type NewPost = Schemas['NewPost'];
export type PostChanges = Schemas['PostChanges'];
export type Image = Schemas['Image'];
export type ImagePage = Schemas['ImagePage'];
export type ImageListQuery = Query<NonNullable<operations['listImages']['parameters']['query']>>;
export type Category = Schemas['Category'];
export type NewCategory = Schemas['NewCategory'];
export type CategoryChanges = operations['updateCategory']['requestBody']['content']['application/json'];
export type Identity = With<Schemas['Identity'], { scopes: Scope[] }>;
export type AuditEvent = With<Schemas['AuditEvent'], { action: AuditAction }>;
export type AuditEventPage = With<Schemas['AuditEventPage'], { data: AuditEvent[] }>;
export type WebhookEndpoint = With<Schemas['WebhookEndpoint'], { events: WebhookSubscription[] }>;
export type WebhookEndpointWithSecret = With<Schemas['WebhookEndpointWithSecret'], { events: WebhookSubscription[] }>;
export type NewWebhookEndpoint = With<
  Schemas['NewWebhookEndpoint'],
  { /** Event types, or `['*']` for every type, including ones added later. */ events: WebhookSubscription[] }
>;
export type WebhookEndpointChanges = With<
  Schemas['WebhookEndpointChanges'],
  { /** Event types, or `['*']` for every type, including ones added later. */ events?: WebhookSubscription[] }
>;
export type Delivery = With<Schemas['Delivery'], { event_type: WebhookEventType }>;
export type DeliveryPage = With<Schemas['DeliveryPage'], { data: Delivery[] }>;
export type PreviewLink = operations['createPreviewLink']['responses'][201]['content']['application/json'];
export type PostListQuery = Query<NonNullable<operations['listPosts']['parameters']['query']>>;
/** The Content API's list: published posts only, newest published first. */
export type PublishedPostListQuery = Query<NonNullable<operations['listPublishedPosts']['parameters']['query']>>;
export type AuditEventQuery = Query<
  With<NonNullable<operations['listAuditEvents']['parameters']['query']>, { action?: AuditAction }>
>;
export type DeliveryQuery = Query<NonNullable<operations['listWebhookDeliveries']['parameters']['query']>>;

export type EventPage = With<Schemas['EventPage'], { data: FeedEvent[] }>;
export type EventQuery = With<
  NonNullable<operations['listEvents']['parameters']['query']>,
  { /** Events per page: 1 to 100 (default 100). */ limit?: number }
>;
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type DeliveryDetail = With<Schemas['DeliveryDetail'], { event_type: WebhookEventType }>;
export type WebhookReplay = Schemas['WebhookReplay'];
export type WebhookReplayResult = Schemas['WebhookReplayResult'];

/** An If-Match precondition: an ETag string, or a post (or a copy of one) carrying its `etag`. */
export type IfMatch = string | { readonly etag: string | null };
