// PostgreSQL: every write of a post's create in one statement, committed on its own. A create
// otherwise sends about eleven statements (BEGIN, the post, its search text, its fingerprint,
// the audit event, the quota, the event (feed and webhook outbox), its deliveries, the
// idempotent response, COMMIT), each a round trip whose sending and receiving were the largest
// cost of a create (docs/performance.md). Each rule's SQL is the one SQLite's transaction runs
// (create-writes.ts), here as a data-modifying CTE:
// - duplicate content: the fingerprint's claim returns no row when the same content was
//   created in the window (a concurrent create of it is waited for by the upsert);
// - the daily quota: its conditional upsert returns no row when the day's units are used up;
// - either failing calls blog_abort(), which undoes the whole statement; the duplicate is
//   checked first, as in the transaction.
// The post's id is taken from IdBlocks beforehand, so the rows that refer to it and the
// response stored for replays are complete when the statement is sent.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { insertAuditSql } from '../audit/index.js';
import { completeRecordSql } from '../idempotency/index.js';
import { takeUnitSql } from '../quotas/index.js';
import { insertEventSql, insertSubscriberDeliveriesSql } from '../webhooks/event-outbox.js';
import { claimFingerprintSql } from './duplicate-window.js';
import { createRows, type CreatedPost, type CreateWrites } from './create-writes.js';

/** A rule the statement refused: the error code it aborted with. */
export type CreateRefusal = 'duplicate_content' | 'quota_exceeded';

const ABORT = 'P0001';

/** Runs the statement; resolves with null when the post was created, else the rule that refused it. */
export async function runCreateStatement(db: Db, w: CreateWrites, post: CreatedPost): Promise<CreateRefusal | null> {
  const rows = createRows(w, post);
  const c = rows.completion;
  const d = rows.deliveries;
  try {
    await sql`
      WITH post AS (
        INSERT INTO posts (id, store_id, title, summary, body_html, warnings, cover_image_id, default_category_id, published_at, view_count, created_at, updated_at)
        VALUES (${post.id}, ${w.storeId}, ${w.title}, ${w.summary}, ${w.bodyHtml}, ${w.warnings}, ${w.coverImageId}, ${w.defaultCategoryId}, NULL, 0, ${w.now}, ${w.now})
      ), search AS (
        INSERT INTO post_search (post_id, text) VALUES (${post.id}, ${w.searchText})
      ), links AS (
        INSERT INTO post_categories (post_id, category_id, store_id)
        SELECT ${post.id}::bigint, c, ${w.storeId}::bigint FROM unnest(${w.categoryIds}::bigint[]) AS c
      ), fingerprint AS (${claimFingerprintSql(rows.fingerprint)}
      ), audit AS (${insertAuditSql(rows.audit)}
      ), quota AS (${takeUnitSql(rows.quota)}
      ), event AS (${insertEventSql('postgres', rows.event)}
      )${d ? sql`, deliveries AS (${insertSubscriberDeliveriesSql('postgres', d)})` : sql``}${c ? sql`, replay AS (${completeRecordSql({ ...c.scope, statusCode: c.statusCode, body: c.body, location: c.location })})` : sql``}
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
