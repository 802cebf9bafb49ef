import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: drops `post_search_text_trgm`, the `pg_trgm` index of migration 0009. Since
 * `0013-store-search-keys` every search looks terms up by the store-keyed `post_search.keys`;
 * the release that added 0013, the one this release rolls back to, never reads the old index,
 * which was kept only for the release before it. Every create and every edit of a post's text
 * still wrote about one GIN entry per distinct trigram of the text into it: a large share of
 * PostgreSQL's work per create (docs/performance.md, "Targets").
 *
 * Expand only in effect: nothing the previous release runs reads the index. The `pg_trgm`
 * extension stays (dropping it gains nothing and needs more rights). SQLite needs nothing
 * (migration 0014 did the same for its trigram table).
 */
export function dropUnreadTrigramIndexMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`DROP INDEX IF EXISTS post_search_text_trgm`.execute(db);
    },
  };
}
