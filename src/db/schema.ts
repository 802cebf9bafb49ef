// Table types for Kysely. Times are UTC epoch milliseconds (sortable, one code path for
// both engines); booleans are 0/1 integers for the same reason; JSON is stored as text.
import type { Generated } from 'kysely';
import type { VersionColumn } from '../cache/topics.js';

export interface StoresTable {
  id: Generated<number>;
  handle: string;
  name: string;
  categories_enabled: number;
  media_enabled: number;
  certified: number;
  writes_paused: number;
  emoji_allowed: number;
  title_max_length: number;
  body_max_bytes: number;
  posts_per_day: number;
  images_per_day: number;
  image_max_bytes: number;
  image_max_pixels: number;
  image_max_width: number;
  image_max_gif_frames: number;
  image_max_total_pixels: number;
  category_max_depth: number;
  storefront_base_url: string | null;
  utc_offset: string;
  /** Added by 0003-webhooks (default on). */
  webhooks_enabled: number;
  /** Added by 0019-allowed-origins: the origins allowed to call the Content API from a browser, comma-separated. */
  allowed_origins: string | null;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  key_id: string;
  store_id: number;
  application: string;
  secret_hash: string;
  /** Comma-separated scope names as issued (implied scopes are expanded when read). */
  scopes: string;
  expires_at: number | null;
  revoked_at: number | null;
  read_per_minute: number;
  write_per_minute: number;
  concurrency: number;
  created_at: number;
}

export interface AuditEventsTable {
  id: Generated<number>;
  store_id: number;
  occurred_at: number;
  action: string;
  resource_type: string;
  resource_id: string;
  key_id: string | null;
  application: string | null;
  request_id: string | null;
  /** JSON array of field names written. */
  changes: string;
}

export interface CategoriesTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  parent_id: number | null;
  /** parent_id or 0 for a root: lets one unique index cover "same name under the same parent". */
  parent_key: number;
  depth: number;
  created_at: number;
  updated_at: number;
}

export interface PostsTable {
  id: Generated<number>;
  store_id: number;
  title: string;
  summary: string | null;
  body_html: string;
  /** JSON array of strings: what the HTML filter removed at the last write. */
  warnings: string;
  cover_image_id: string | null;
  default_category_id: number | null;
  published_at: number | null;
  view_count: number;
  created_at: number;
  updated_at: number;
}

export interface PostCategoriesTable {
  post_id: number;
  category_id: number;
  store_id: number;
}

export interface PostProductLinksTable {
  store_id: number;
  post_id: number;
  product_id: string;
  created_at: number;
}

export interface ContentFingerprintsTable {
  store_id: number;
  fingerprint: string;
  post_id: number;
  created_at: number;
}

export interface IdempotencyRecordsTable {
  store_id: number;
  application: string;
  idem_key: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  status_code: number | null;
  response_body: string | null;
  location: string | null;
  created_at: number;
  expires_at: number;
}

export interface DeleteConfirmationsTable {
  token_hash: string;
  store_id: number;
  post_id: number;
  key_id: string;
  expires_at: number;
}

export interface DailyUsageTable {
  store_id: number;
  kind: string;
  day: string;
  used: number;
}

export interface ImagesTable {
  id: string;
  store_id: number;
  basename: string;
  sha256: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  created_at: number;
  deleted_at: number | null;
}

/** PostgreSQL only: cache versions per store, a `<topic>_version` column per cache topic (src/cache/topics.ts), kept by triggers (migration 0005). */
export interface CacheVersionsTable extends Record<VersionColumn, number> {
  store_id: number;
  /** The transaction that last changed the row (xid8 as text; migration 0006). */
  changed_xid: string | null;
  /** The store's last events-feed sequence (migration 0012). */
  event_sequence: number;
  /** The newest sequence retention has dropped from the feed. */
  events_purged_through: number;
}

/** SQLite: the store's events-feed counter and retention horizon (PostgreSQL keeps them in cache_versions). */
export interface EventSequencesTable {
  store_id: number;
  last_sequence: number;
  purged_through: number;
}

/** One row per lease name; the holder may run the job until expires_at. */
export interface HousekeepingLeaseTable {
  name: string;
  holder: string;
  expires_at: number;
  /** Listing position the media sweep resumes from, or null to start over. */
  media_cursor: string | null;
}

/** An image marked deleted whose file is still to be removed. */
export interface MediaDeletionsTable {
  image_id: string;
  requested_at: number;
}

export interface ServiceSettingsTable {
  name: string;
  value: string;
}

export interface Database {
  stores: StoresTable;
  api_keys: ApiKeysTable;
  audit_events: AuditEventsTable;
  categories: CategoriesTable;
  posts: PostsTable;
  post_categories: PostCategoriesTable;
  post_product_links: PostProductLinksTable;
  content_fingerprints: ContentFingerprintsTable;
  idempotency_records: IdempotencyRecordsTable;
  delete_confirmations: DeleteConfirmationsTable;
  daily_usage: DailyUsageTable;
  images: ImagesTable;
  service_settings: ServiceSettingsTable;
  cache_versions: CacheVersionsTable;
  housekeeping_lease: HousekeepingLeaseTable;
  media_deletions: MediaDeletionsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_schedules: WebhookSchedulesTable;
  post_search: PostSearchTable;
  /** SQLite only (0011-store-isolation): contentless FTS5, rowid = post id. */
  post_search_store: { rowid: number; tokens: string };
  event_sequences: EventSequencesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** One attempt to send a delivery: written when it starts, completed with its outcome (migration 0012). */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  store_id: number;
  /** The claim the attempt ran under: an unfinished attempt whose claim is gone was interrupted. */
  lease_token: string;
  started_at: number;
  duration_ms: number | null;
  response_status: number | null;
  error: string | null;
  /** The first 1 KB of the answer's body, as text. */
  response_excerpt: string | null;
  finished: number;
}

export interface WebhookEndpointsTable {
  id: string;
  store_id: number;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  description: string | null;
  enabled: number;
  disabled_reason: string | null;
  /** `whsec_…`; kept in full because every delivery is signed with it. */
  secret: string;
  /** The secret before the last rotation, still signing beside the new one until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  /** Start of the current run of failed attempts; null after a success. */
  failing_since: number | null;
  /** Added by 0011-store-isolation: attempts in a row that got no answer in time (circuit breaker). */
  consecutive_timeouts: Generated<number>;
  /** Added by 0011-store-isolation: while in the future, no delivery to the endpoint is claimed. */
  circuit_open_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookEventsTable {
  /** `msg_…`: the `webhook-id` of every delivery of this event. */
  id: string;
  store_id: number;
  type: string;
  /** The request body exactly as sent (the same bytes on every attempt). */
  body: string;
  created_at: number;
  /** Its place in the store's events feed, in commit order (migration 0012); null for `webhook.test`. */
  sequence: number | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  store_id: number;
  endpoint_id: string;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_attempt_at: number | null;
  last_response_status: number | null;
  /**
   * When a pending delivery is next due; null once it has succeeded or failed, and while it is
   * held because its store's queue is full (events/delivery-queue.ts).
   */
  next_attempt_at: number | null;
  /** The claim of the worker sending it now, valid until `lease_until`. */
  lease_token: string | null;
  lease_until: number | null;
  created_at: number;
  /** The delivery this one retries (POST …/deliveries/{id}/retry; migration 0012). */
  retry_of?: string | null;
}

export interface WebhookSchedulesTable {
  post_id: number;
  store_id: number;
  /** The scheduled post's publish time: its `post.published` event is due then. */
  due_at: number;
}

/**
 * The search text of each post (migration 0009-post-search): on SQLite an FTS5 table whose rowid
 * is the post id, on PostgreSQL a table keyed by post_id. Only one of the two ids exists per engine.
 */
export interface PostSearchTable {
  post_id: Generated<number>;
  rowid: Generated<number>;
  /** Title, summary and body without markup, lower-cased (src/modules/posts/post-search.ts). */
  text: string;
  /** PostgreSQL only (0013-store-search-keys): the post's store. */
  store_id: number | null;
  /**
   * PostgreSQL only: the store-keyed trigrams of `text` (storeSearchKeys), given by the writer;
   * computed by a trigger when it gives none (0020-search-keys-from-writer).
   */
  keys: string[] | null;
}
