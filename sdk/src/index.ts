export { BlogClient, etagOf, type BlogClientOptions } from './client.js';
export { ContentClient, type ContentClientOptions } from './content-client.js';
export type { ClientOptions } from './client-options.js';
export type {
  AuditEvent,
  AuditEventPage,
  AuditEventQuery,
  Category,
  CategoryChanges,
  Delivery,
  DeliveryAttempt,
  DeliveryDetail,
  DeliveryPage,
  DeliveryQuery,
  EventPage,
  EventQuery,
  Identity,
  IfMatch,
  Image,
  ImageListQuery,
  ImagePage,
  NewCategory,
  NewPost,
  NewWebhookEndpoint,
  Post,
  PostChanges,
  PostListItem,
  PostListQuery,
  PostPage,
  PreviewLink,
  PublishedPostListQuery,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointWithSecret,
  WebhookReplay,
  WebhookReplayResult,
} from './types.js';
export type {
  EventResource,
  EventTypeFilter,
  FeedEvent,
  FeedEventMatching,
  FeedEventOf,
  FeedEventType,
  WebhookEventOf,
} from './event-types.js';
export type { RequestEvent, RequestOptions, ResponseEvent, Timers } from './transport.js';
export type { ConditionalOptions, CreateOptions } from './resources/resource.js';
export type { PublishOptions, PreviewLinkOptions, PostsApi } from './resources/posts.js';
export type { CreateCategoryOptions, CategoriesApi } from './resources/categories.js';
export type { UploadOptions, ImagesApi } from './resources/images.js';
export type { AuditApi } from './resources/audit.js';
export type { WebhooksApi } from './resources/webhooks.js';
export type { EventsApi, FollowOptions, FollowRetryEvent, FollowRetryOptions } from './resources/events.js';
export { PageIterator, type Page, type ToArrayOptions } from './paging.js';
export {
  BlogApiError,
  BlogConnectionError,
  type ConnectionErrorCode,
  type ErrorCode,
  type ErrorDetail,
  type SdkErrorCode,
  type ServiceErrorCode,
} from './errors.js';
export type { RetryOptions } from './retry.js';
export {
  API_VERSION,
  AUDIT_ACTIONS,
  SCOPES,
  WEBHOOK_EVENT_TYPES,
  isEventTypeFilter,
  type AuditAction,
  type PageLimit,
  type Scope,
  type WebhookEventType,
  type WebhookSubscription,
} from './vocabulary.js';
export { verifyWebhook } from './verify-webhook.js';
export {
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhook-signature.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
