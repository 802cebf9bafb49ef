import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { searchText } from '../../lib/search-text.js';

const BACKFILL_BATCH = 500;

/**
 * Search and the list orders of GET /v1/blog/posts (`q`, `order_by`, `updated_since`):
 * - `post_search`: each post's search text (src/modules/posts/post-search.ts). SQLite: an FTS5
 *   table with the trigram tokenizer and no positions (detail=none), rowid = post id. PostgreSQL: a table with a pg_trgm GIN
 *   index (the extension is trusted: the database owner may create it).
 * - indexes for the sync feed (updated_at) and for the newest-published-first order (drafts
 *   last: the same COALESCE the list query sorts on).
 * Existing posts get their search text here.
 */
export function postSearchMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine === 'postgres') {
        await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
        await sql`
          CREATE TABLE post_search (
            post_id bigint PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
            text text NOT NULL
          )`.execute(db);
        await sql`CREATE INDEX post_search_text_trgm ON post_search USING gin (text gin_trgm_ops)`.execute(db);
      } else {
        // detail=none keeps no token positions: a third of the write cost of a full index
        // (creates stay within their target, docs/performance.md). The trade: no phrase
        // queries, so a term is looked up by its trigrams and then checked with instr().
        await sql`CREATE VIRTUAL TABLE post_search USING fts5(text, tokenize = 'trigram', detail = none, columnsize = 0)`.execute(
          db,
        );
      }
      await sql`CREATE INDEX posts_store_updated ON posts (store_id, updated_at, id)`.execute(db);
      await sql`CREATE INDEX posts_store_published ON posts (store_id, (COALESCE(published_at, -1)), id)`.execute(db);

      let after = 0;
      for (;;) {
        const rows = await db
          .selectFrom('posts')
          .select(['id', 'title', 'summary', 'body_html'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(BACKFILL_BATCH)
          .execute();
        if (rows.length === 0) break;
        const idColumn = engine === 'postgres' ? 'post_id' : 'rowid';
        await db
          .insertInto('post_search')
          .values(
            rows.map((r: { id: number; title: string; summary: string | null; body_html: string }) => ({
              [idColumn]: r.id,
              text: searchText(r.title, r.summary, r.body_html),
            })),
          )
          .execute();
        after = Number(rows[rows.length - 1].id);
      }
      // The planner's choice between the search index and the list's order depends on these statistics.
      if (engine === 'postgres') await sql`ANALYZE post_search`.execute(db);
    },
  };
}
