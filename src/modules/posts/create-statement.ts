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
// The quota's upsert locks the store's row of the day until the commit, so a store's creates
// take it one after the other: it is taken last. A data-modifying CTE the main query does not
// read runs after the main query, so the main query reads every other write (each returns a
// row) before it reads the quota; taken first, the lock was held through all of them and
// creates of one store waited for each other's whole statement, not only for the commit.
// The post's id is taken from IdBlocks beforehand, so the rows that refer to it and the
// response stored for replays are complete when the statement is sent.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { queryTemplate, raw } from '../../db/query-template.js';
import { storeSearchKeys } from '../../lib/search-text.js';
import { insertAuditSql } from '../audit/index.js';
import { completeRecordSql } from '../idempotency/index.js';
import { takeUnitSql } from '../quotas/index.js';
import { insertEventSql, insertSubscriberDeliveriesSql } from '../events/index.js';
import { claimFingerprintSql } from './duplicate-window.js';
import { createRows, type CreatedPost, type CreateWrites } from './create-writes.js';
import { categoryLinksInsert, postInsert, type NewPost } from './post-repository.js';
import { searchRowInsert } from './post-search.js';

/** A rule the statement refused: the error code it aborted with. */
export type CreateRefusal = 'duplicate_content' | 'quota_exceeded';

const ABORT = 'P0001';

/** The statement's arguments, one value each (see queryTemplate): the post's row, then the rest. */
interface StatementArgs extends NewPost {
  id: number;
  searchText: string;
  searchKeys: string[];
  categoryIds: number[];
  fingerprint: string;
  resourceId: string;
  keyId: string | null;
  application: string | null;
  requestId: string | null;
  changes: string;
  day: string;
  limit: number;
  eventId: string;
  eventBody: string;
  deliveryIdPrefix: string;
  idemApplication: string;
  idemKey: string;
  statusCode: number;
  responseBody: string;
  location: string | null;
}

/** What the post's own rows return: the statement counts them (below). */
const ONE = sql<number>`1`.as('one');

/** Whether the statement queues deliveries (the store's webhooks are on) and completes an idempotency record. */
const WITH_DELIVERIES = 1;
const WITH_COMPLETION = 2;

// Compiled once per shape: building and compiling a statement of this size cost more API CPU
// than anything else in a PostgreSQL create but the round trip.
const createStatement = queryTemplate((db, $: StatementArgs, shape: number) =>
  raw(
    db,
    sql`
      WITH post AS (${postInsert(db, $, $.id).returning(ONE)}
      ), search AS (${searchRowInsert(db, { postId: $.id, storeId: $.storeId, text: $.searchText, keys: $.searchKeys }).returning(ONE)}
      ), links AS (${categoryLinksInsert(db, { postId: $.id, storeId: $.storeId, categoryIds: $.categoryIds }).returning(ONE)}
      ), fingerprint AS (${claimFingerprintSql({ storeId: $.storeId, fingerprint: $.fingerprint, postId: $.id, now: $.now })}
      ), audit AS (${insertAuditSql({ storeId: $.storeId, occurredAt: $.now, action: 'post.created', resourceType: 'post', resourceId: $.resourceId, keyId: $.keyId, application: $.application, requestId: $.requestId, changes: $.changes })} RETURNING 1
      ), quota AS (${takeUnitSql({ storeId: $.storeId, kind: 'posts', day: $.day, limit: $.limit })}
      ), event AS (${insertEventSql('postgres', { id: $.eventId, storeId: $.storeId, type: 'post.created', body: $.eventBody, at: $.now })} RETURNING 1
      )${shape & WITH_DELIVERIES ? sql`, deliveries AS (${insertSubscriberDeliveriesSql('postgres', { storeId: $.storeId, eventId: $.eventId, type: 'post.created', at: $.now, idPrefix: $.deliveryIdPrefix })} RETURNING 1)` : sql``}${
        shape & WITH_COMPLETION
          ? sql`, replay AS (${completeRecordSql({ storeId: $.storeId, application: $.idemApplication, key: $.idemKey, statusCode: $.statusCode, body: $.responseBody, location: $.location })} RETURNING 1)`
          : sql``
      }
      SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM fingerprint) THEN blog_abort('duplicate_content')
        -- Never true: it makes every other write run here, before the quota (see above).
        WHEN (SELECT count(*) FROM post) + (SELECT count(*) FROM search) + (SELECT count(*) FROM links)
          + (SELECT count(*) FROM audit) + (SELECT count(*) FROM event)${shape & WITH_DELIVERIES ? sql` + (SELECT count(*) FROM deliveries)` : sql``}${shape & WITH_COMPLETION ? sql` + (SELECT count(*) FROM replay)` : sql``} < 0 THEN NULL
        WHEN NOT EXISTS (SELECT 1 FROM quota) THEN blog_abort('quota_exceeded')
        ELSE true
      END AS created`,
  ),
);

/** Runs the statement; resolves with null when the post was created, else the rule that refused it. */
export async function runCreateStatement(db: Db, w: CreateWrites, post: CreatedPost): Promise<CreateRefusal | null> {
  const rows = createRows(w, post);
  const c = rows.completion;
  const d = rows.deliveries;
  try {
    await createStatement(
      db,
      {
        id: post.id,
        storeId: w.storeId,
        title: w.title,
        summary: w.summary,
        bodyHtml: w.bodyHtml,
        warnings: w.warnings,
        coverImageId: w.coverImageId,
        defaultCategoryId: w.defaultCategoryId,
        now: w.now,
        searchText: w.searchText,
        searchKeys: storeSearchKeys(w.storeId, w.searchText),
        categoryIds: w.categoryIds,
        fingerprint: w.fingerprint,
        resourceId: rows.audit.resourceId,
        keyId: rows.audit.keyId,
        application: rows.audit.application,
        requestId: rows.audit.requestId,
        changes: rows.audit.changes,
        day: rows.quota.day,
        limit: rows.quota.limit,
        eventId: rows.event.id,
        eventBody: rows.event.body,
        deliveryIdPrefix: d?.idPrefix ?? '',
        idemApplication: c?.scope.application ?? '',
        idemKey: c?.scope.key ?? '',
        statusCode: c?.statusCode ?? 0,
        responseBody: c?.body ?? '',
        location: c?.location ?? null,
      },
      (d ? WITH_DELIVERIES : 0) | (c ? WITH_COMPLETION : 0),
    );
    return null;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e?.code === ABORT && (e.message === 'duplicate_content' || e.message === 'quota_exceeded')) return e.message;
    throw err;
  }
}
