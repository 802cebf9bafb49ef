import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL search keyed by store (docs/performance.md, "Search"). `post_search.keys` holds
 * the post's trigrams each prefixed with its store (`<store id>:<trigram>`), computed by
 * `post_search_keys` from `store_id` and the search text, with a GIN index. A search looks up
 * only its own store's keys, so it reads only its own posts' index entries: a word only
 * another store holds reads nothing, and other stores' posts add no work to it. The pg_trgm
 * index served `LIKE` over every store's rows before the store filter (a timing oracle).
 * The same function computes the keys of the row and of the query, so they always agree.
 *
 * Expand only: the previous release writes `post_search (post_id, text)` without `store_id`;
 * a deferred trigger fills it in at commit (the post's row is not visible to a trigger of the
 * same statement, which is how a create writes both), so its posts stay searchable after a
 * rollback and a roll forward. Its pg_trgm index stays until a later release drops it.
 * SQLite needs nothing (its store-keyed index is migration 0011).
 */
export function storeSearchKeysMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      // STRICT: no store, no keys (the row is filled in at commit, below). A word's trigrams are
      // counted in characters, as src/lib/search-text.ts does for SQLite.
      await sql`
        CREATE FUNCTION post_search_keys(store bigint, search_text text) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
          SELECT coalesce(array_agg(DISTINCT store::text || ':' || substr(w, i, 3)), '{}')
          FROM unnest(string_to_array(search_text, ' ')) AS w, generate_series(1, char_length(w) - 2) AS i
        $$`.execute(db);
      await sql`ALTER TABLE post_search ADD COLUMN store_id bigint`.execute(db);
      await sql`UPDATE post_search s SET store_id = p.store_id FROM posts p WHERE p.id = s.post_id`.execute(db);
      await sql`ALTER TABLE post_search ADD COLUMN keys text[] GENERATED ALWAYS AS (post_search_keys(store_id, text)) STORED`.execute(
        db,
      );
      await sql`CREATE INDEX post_search_store_keys ON post_search USING gin (keys) WITH (fastupdate = off)`.execute(
        db,
      );
      await sql`
        CREATE FUNCTION post_search_fill_store() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE post_search s SET store_id = p.store_id FROM posts p
          WHERE s.post_id = NEW.post_id AND p.id = NEW.post_id AND s.store_id IS NULL;
          RETURN NULL;
        END $$`.execute(db);
      await sql`
        CREATE CONSTRAINT TRIGGER post_search_fill_store AFTER INSERT ON post_search
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.store_id IS NULL)
        EXECUTE FUNCTION post_search_fill_store()`.execute(db);
      // The planner's choice between the keys and the list's order depends on these statistics.
      await sql`ANALYZE post_search`.execute(db);
    },
  };
}
