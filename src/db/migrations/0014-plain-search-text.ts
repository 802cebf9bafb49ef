import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * SQLite: `post_search` becomes a plain table (`post_id`, the rowid, and `text`) instead of an FTS5
 * trigram table. Since migration 0011 a search finds its candidates in the store-keyed
 * `post_search_store` and reads `post_search` only by rowid, to check each candidate's text,
 * so the trigram index was written on every create and edit (and flushed at every savepoint)
 * and never read: about a seventh of a create's CPU (docs/performance.md, "Targets").
 *
 * Expand only in effect: the table keeps its name and columns, and everything the previous
 * release does with it (insert by rowid, delete by rowid, read `text` by rowid) works the same
 * on a plain table. PostgreSQL needs nothing (its `post_search` was always a plain table).
 */
export function plainSearchTextMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'sqlite') return;
      // post_id INTEGER PRIMARY KEY is the rowid itself, so a VACUUM never renumbers it.
      await sql`CREATE TABLE post_search_plain (post_id INTEGER PRIMARY KEY, text TEXT NOT NULL)`.execute(db);
      await sql`INSERT INTO post_search_plain (rowid, text) SELECT rowid, text FROM post_search`.execute(db);
      await sql`DROP TABLE post_search`.execute(db);
      await sql`ALTER TABLE post_search_plain RENAME TO post_search`.execute(db);
    },
  };
}
