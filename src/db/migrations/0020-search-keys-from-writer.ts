import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: a post's search keys (`post_search.keys`) come with the write, computed by the API
 * (storeSearchKeys in src/lib/search-text.ts, the same trigrams SQLite's tokens hold), instead of
 * by the generated column's SQL function in the writing backend. The function's regular
 * expression scans cost PostgreSQL about 650 µs of CPU per 5 KB post, in every create, against
 * about 65 µs in the API (docs/performance.md, "Where a PostgreSQL create's time goes").
 *
 * The column stops being generated (its stored values stay: no rewrite), and a BEFORE trigger
 * computes the keys with post_search_keys() whenever a writer does not give them: an insert
 * without keys (the previous release, which never names the column; SQL run by hand), and an
 * update that changes the text or the store but not the keys (the previous release's edit; the
 * store filled in by post_search_fill_store). So every row's keys stay those of its text.
 *
 * Expand only: the previous release writes rows as before and gets the same keys as before.
 */
export function searchKeysFromWriterMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`ALTER TABLE post_search ALTER COLUMN keys DROP EXPRESSION`.execute(db);
      await sql`
        CREATE FUNCTION post_search_keys_default() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            IF NEW.keys IS NULL THEN
              NEW.keys := post_search_keys(NEW.store_id, NEW.text);
            END IF;
          ELSIF (NEW.text IS DISTINCT FROM OLD.text OR NEW.store_id IS DISTINCT FROM OLD.store_id)
                AND NEW.keys IS NOT DISTINCT FROM OLD.keys THEN
            NEW.keys := post_search_keys(NEW.store_id, NEW.text);
          END IF;
          RETURN NEW;
        END $$`.execute(db);
      await sql`
        CREATE TRIGGER post_search_keys_default BEFORE INSERT OR UPDATE ON post_search
        FOR EACH ROW EXECUTE FUNCTION post_search_keys_default()`.execute(db);
    },
  };
}
