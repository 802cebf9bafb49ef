import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { searchText, storeSearchTokens } from '../../lib/search-text.js';

const BACKFILL_BATCH = 500;

/**
 * What keeps one store from slowing another (docs/webhooks.md "Fairness", docs/performance.md):
 *
 * Webhooks (both engines): each endpoint's circuit breaker (`consecutive_timeouts`,
 * `circuit_open_until`), and an index of each store's queue (pending deliveries by store; the
 * held ones, with no `next_attempt_at`, first), which the queue bound and the release read.
 *
 * SQLite: search keyed by store (`post_search_store`). Each post's trigrams are indexed as tokens
 * that name its store (src/lib/search-text.ts), so a search reads only its own store's entries
 * and its cost never depends on other stores' posts. A contentless FTS5 table (the text stays in
 * `post_search`, where each candidate is checked), rowid = post id.
 * Expand only: `post_search` keeps being written, so the previous release still searches
 * correctly after a rollback; a later release drops its index (docs/operations.md).
 * PostgreSQL needs nothing: its search starts from the store's posts (docs/performance.md).
 */
export function storeIsolationMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('webhook_endpoints')
        .addColumn('consecutive_timeouts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('circuit_open_until', 'bigint').execute();
      await sql`CREATE INDEX webhook_deliveries_store_queue ON webhook_deliveries (store_id, next_attempt_at) WHERE status = 'pending'`.execute(
        db,
      );
      if (engine === 'postgres') return;
      await sql`CREATE VIRTUAL TABLE post_search_store USING fts5(tokens, content = '', contentless_delete = 1, detail = none, tokenize = 'ascii')`.execute(
        db,
      );
      let after = 0;
      for (;;) {
        const rows = await db
          .selectFrom('posts')
          .select(['id', 'store_id', 'title', 'summary', 'body_html'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(BACKFILL_BATCH)
          .execute();
        if (rows.length === 0) break;
        await db
          .insertInto('post_search_store')
          .values(
            rows.map(
              (r: { id: number; store_id: number; title: string; summary: string | null; body_html: string }) => ({
                rowid: r.id,
                tokens: storeSearchTokens(Number(r.store_id), searchText(r.title, r.summary, r.body_html)),
              }),
            ),
          )
          .execute();
        after = Number(rows[rows.length - 1].id);
      }
    },
  };
}
