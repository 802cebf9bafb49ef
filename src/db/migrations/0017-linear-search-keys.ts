import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: `post_search_keys` (migration 0013-store-search-keys) computed in time linear in a
 * word's length instead of quadratic. It took each trigram with `substr(w, i, 3)`, and in UTF-8
 * `substr` walks the word from its first character to the i-th, so a word of n characters cost
 * n²/2 steps: a body of one unbroken 10 KB run took over a second, 100 KB passed the statement
 * timeout, and a body of body_max_bytes could not be written at all. Now each word is read three
 * times, from its first, second and third character, each time cut into consecutive three-character
 * pieces by one regular expression scan (`.` matches every character, new lines included): the
 * pieces of the three scans are exactly the trigrams at every position. The trigrams are made
 * distinct before the store is prefixed (a hash of short strings, not a sort of long ones).
 *
 * The keys are the same set as before for every text (test/api/search-keys-parity.test.ts holds
 * this against the TypeScript tokens SQLite uses), so the stored keys of existing rows are already
 * correct and nothing is rewritten; the array's order differs, which neither `@>` nor the GIN index
 * reads. Expand only: the previous release calls the function with the same arguments and gets
 * the same keys. Replacing a function takes no lock on `post_search`, so it is safe on a live
 * database. SQLite needs nothing (its tokens are computed in TypeScript, in linear time).
 */
export function linearSearchKeysMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`
        CREATE OR REPLACE FUNCTION post_search_keys(store bigint, search_text text) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
          SELECT coalesce(array_agg(store::text || ':' || trigrams.t), '{}')
          FROM (
            SELECT DISTINCT piece[1] AS t
            FROM unnest(string_to_array(search_text, ' ')) AS w,
                 generate_series(1, 3) AS start,
                 regexp_matches(substr(w, start), '...', 'g') AS piece
          ) AS trigrams
        $$`.execute(db);
    },
  };
}
