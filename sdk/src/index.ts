export { BlogClient, etagOf } from './client.js';
export type {
  AuditEvent,
  AuditEventPage,
  AuditEventQuery,
  BlogClientOptions,
  Category,
  CategoryChanges,
  Delivery,
  DeliveryPage,
  DeliveryQuery,
  Identity,
  IfMatch,
  Image,
  NewCategory,
  NewPost,
  NewWebhookEndpoint,
  Post,
  PostChanges,
  PostListItem,
  PostListQuery,
  PostPage,
  PreviewLink,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointWithSecret,
} from './client.js';
export { BlogApiError, type ErrorCode, type ErrorDetail } from './errors.js';
export type { RetryOptions } from './retry.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookEvent, type WebhookEventType, type WebhookHeaders } from './verify-webhook.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
export { EventsApi, type EventPage, type EventQuery, type FeedEvent, type FollowOptions } from './events.js';
export type { DeliveryAttempt, DeliveryDetail, WebhookReplay, WebhookReplayResult } from './webhook-recovery.js';
export { listen, signedRequest, type ListenOptions } from './listen.js';
