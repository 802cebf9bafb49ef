// PostgreSQL: every write of a post's create in one statement, committed on its own. A create
// otherwise sends about eleven statements (BEGIN, the duplicate check, the post, its search
// text, its fingerprint, the audit event, the quota, the event (feed and webhook outbox), the idempotent
// response, COMMIT), each a round trip whose sending and receiving were the largest cost of a
// create (docs/performance.md). The rules are the same as the transaction's in post-service.ts:
// - duplicate content: the fingerprint's upsert changes no row when the same content was
//   created in the window (a concurrent create of it is waited for by the upsert);
// - the daily quota: its conditional upsert changes no row when the day's units are used up;
// - either failing calls blog_abort(), which undoes the whole statement; the duplicate is
//   checked first, as in the transaction.
// The post's id is taken from IdBlocks beforehand, so the rows that refer to it and the
// response stored for replays are complete when the statement is sent.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { StoredResponse } from '../idempotency/index.js';
import { STORE_QUEUE_LIMIT } from '../webhooks/delivery-queue.js';
import type { NewPost } from './post-repository.js';

export interface CreateWrites extends NewPost {
  id: number;
  categoryIds: number[];
  /** The post's search text (post-search.ts). */
  searchText: string;
  fingerprint: string;
  /** A fingerprint recorded at or before this time no longer blocks the same content. */
  windowStart: number;
  audit: { keyId: string | null; application: string | null; requestId: string | null; changes: string };
  quota: { day: string; limit: number };
  /** The `post.created` event: always in the store's feed; `deliver` false (webhooks off) queues no delivery. */
  event: { id: string; type: string; body: string; deliver: boolean };
  /** The response stored for replays of an idempotent request. */
  response: StoredResponse | null;
}

/** A rule the statement refused: the error code it aborted with. */
export type CreateRefusal = 'duplicate_content' | 'quota_exceeded';

const ABORT = 'P0001';

/** Runs the statement; resolves with null when the post was created, else the rule that refused it. */
export async function runCreateStatement(db: Db, w: CreateWrites): Promise<CreateRefusal | null> {
  const r = w.response;
  try {
    await sql`
      WITH post AS (
        INSERT INTO posts (id, store_id, title, summary, body_html, warnings, cover_image_id, default_category_id, published_at, view_count, created_at, updated_at)
        VALUES (${w.id}, ${w.storeId}, ${w.title}, ${w.summary}, ${w.bodyHtml}, ${w.warnings}, ${w.coverImageId}, ${w.defaultCategoryId}, NULL, 0, ${w.now}, ${w.now})
      ), search AS (
        INSERT INTO post_search (post_id, store_id, text) VALUES (${w.id}, ${w.storeId}, ${w.searchText})
      ), links AS (
        INSERT INTO post_categories (post_id, category_id, store_id)
        SELECT ${w.id}::bigint, c, ${w.storeId}::bigint FROM unnest(${w.categoryIds}::bigint[]) AS c
      ), fingerprint AS (
        INSERT INTO content_fingerprints AS f (store_id, fingerprint, post_id, created_at)
        VALUES (${w.storeId}, ${w.fingerprint}, ${w.id}, ${w.now})
        ON CONFLICT (store_id, fingerprint) DO UPDATE SET post_id = excluded.post_id, created_at = excluded.created_at
        WHERE f.created_at <= ${w.windowStart}
        RETURNING 1
      ), audit AS (
        INSERT INTO audit_events (store_id, occurred_at, action, resource_type, resource_id, key_id, application, request_id, changes)
        VALUES (${w.storeId}, ${w.now}, 'post.created', 'post', ${String(w.id)}, ${w.audit.keyId}, ${w.audit.application}, ${w.audit.requestId}, ${w.audit.changes})
      ), quota AS (
        INSERT INTO daily_usage AS u (store_id, kind, day, used)
        SELECT ${w.storeId}::bigint, 'posts', ${w.quota.day}::text, 1 WHERE ${w.quota.limit}::int > 0
        ON CONFLICT (store_id, kind, day) DO UPDATE SET used = u.used + 1 WHERE u.used < ${w.quota.limit}::int
        RETURNING 1
      ), replay AS (
        UPDATE idempotency_records SET state = 'completed', status_code = ${r?.statusCode ?? null}::int, response_body = ${r?.body ?? null}, location = ${r?.location ?? null}
        WHERE ${r !== null}::boolean AND store_id = ${r?.scope.storeId ?? null}::bigint AND application = ${r?.scope.application ?? null} AND idem_key = ${r?.scope.key ?? null}
      ), targets AS (
        SELECT id FROM webhook_endpoints
        WHERE ${w.event.deliver}::boolean AND store_id = ${w.storeId} AND enabled = 1
          AND (events::jsonb ? '*' OR events::jsonb ? ${w.event.type}::text)
      ), event AS (
        INSERT INTO webhook_events (id, store_id, type, body, created_at)
        VALUES (${w.event.id}, ${w.storeId}, ${w.event.type}, ${w.event.body}, ${w.now})
        RETURNING id
      ), deliveries AS (
        INSERT INTO webhook_deliveries (id, store_id, endpoint_id, event_id, status, attempts, last_attempt_at, last_response_status, next_attempt_at, lease_token, lease_until, created_at)
        SELECT 'whd_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), ${w.storeId}::bigint, t.id, e.id, 'pending', 0, NULL::bigint, NULL::int,
          -- Held (no due time) while the store's queue is full (webhooks/delivery-queue.ts).
          CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries WHERE store_id = ${w.storeId} AND status = 'pending' AND next_attempt_at IS NOT NULL LIMIT ${STORE_QUEUE_LIMIT}) q) >= ${STORE_QUEUE_LIMIT}
            THEN NULL ELSE ${w.now}::bigint END,
          NULL::text, NULL::bigint, ${w.now}::bigint
        FROM targets t CROSS JOIN event e
      )
      SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM fingerprint) THEN blog_abort('duplicate_content')
        WHEN NOT EXISTS (SELECT 1 FROM quota) THEN blog_abort('quota_exceeded')
        ELSE true
      END AS created`.execute(db);
    return null;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e?.code === ABORT && (e.message === 'duplicate_content' || e.message === 'quota_exceeded')) return e.message;
    throw err;
  }
}
