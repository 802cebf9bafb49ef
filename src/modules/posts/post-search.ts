// Free-text search over posts (`q` of GET /v1/blog/posts). Each post has one row of search text
// (the distinct words of its title, summary and body without markup, lower-cased), written with the post in the same
// transaction, in `post_search` (SQLite: rowid = post id, a plain table since migration
// 0014-plain-search-text; PostgreSQL: migration 0009-post-search). The indexes find the posts
// holding a term of three characters or more; every term is then checked with instr/strpos on
// the same text, which is also how shorter terms (a two-character Chinese word) are found.
// Both engines look terms up by trigrams that name the post's store, so one store's search
// reads only its own posts' entries: its cost, and its timing, never depend on another store's
// posts. SQLite: `post_search_store` (migration 0011-store-isolation); PostgreSQL:
// `post_search.keys` and its GIN index (migration 0013-store-search-keys). The tokens and the
// keys are the same trigrams, computed here for both engines (src/lib/search-text.ts) and
// written with the row. `post_search` keeps the text each candidate is checked against.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import type { BeforeCommit } from '../../db/group-commit.js';
import { queryTemplate } from '../../db/query-template.js';
import { isPostgres } from '../../db/engine-of.js';
import type { Database } from '../../db/schema.js';

import { storeSearchKeys, storeSearchTokens, storeTermTokens, TRIGRAM_LENGTH } from '../../lib/search-text.js';

export { searchTerms, searchText } from '../../lib/search-text.js';

type SearchRow = { postId: number; text: string };
/** PostgreSQL's row: `keys` is storeSearchKeys(storeId, text). */
type StoreSearchRow = SearchRow & { storeId: number; keys: string[] };
const insertSqlite = queryTemplate((db, $: SearchRow) =>
  db.insertInto('post_search').values({ rowid: $.postId, text: $.text }),
);
const deleteSqlite = queryTemplate((db, $: { postId: number }) =>
  db.deleteFrom('post_search').where('rowid', '=', $.postId),
);
const insertStoreTokens = queryTemplate((db, $: { postId: number; tokens: string }) =>
  db.insertInto('post_search_store').values({ rowid: $.postId, tokens: $.tokens }),
);
const deleteStoreTokens = queryTemplate((db, $: { postId: number }) =>
  db.deleteFrom('post_search_store').where('rowid', '=', $.postId),
);
/** PostgreSQL's search row of a new post, run alone or inside the one-statement create (create-statement.ts). */
export function searchRowInsert(db: Db, $: StoreSearchRow) {
  return db
    .insertInto('post_search')
    .values({ post_id: $.postId, store_id: $.storeId, text: $.text, keys: sql<string[]>`${$.keys}::text[]` });
}
const insertPostgres = queryTemplate(searchRowInsert);
const updatePostgres = queryTemplate((db, $: SearchRow & { keys: string[] }) =>
  db
    .updateTable('post_search')
    .set({ text: $.text, keys: sql<string[]>`${$.keys}::text[]` })
    .where('post_id', '=', $.postId),
);
const deletePostgres = queryTemplate((db, $: { postId: number }) =>
  db.deleteFrom('post_search').where('post_id', '=', $.postId),
);

/**
 * The search text of a new post (of store `storeId`), in the creating transaction. SQLite: with
 * `beforeCommit`, the store tokens are inserted just before the commit, outside the write's
 * savepoint, so FTS5 writes the tokens of every create of a group commit as one segment of its
 * index instead of one segment a create (see group-commit.ts).
 */
export async function insertSearchText(
  trx: Db,
  storeId: number,
  postId: number,
  text: string,
  beforeCommit?: BeforeCommit,
): Promise<void> {
  if (isPostgres(trx)) {
    await insertPostgres(trx, { postId, storeId, text, keys: storeSearchKeys(storeId, text) });
    return;
  }
  await insertSqlite(trx, { postId, text });
  const tokens = storeSearchTokens(storeId, text);
  if (beforeCommit) beforeCommit((trx) => insertStoreTokens(trx, { postId, tokens }));
  else await insertStoreTokens(trx, { postId, tokens });
}

/** Replaces a post's search text (FTS5 has no in-place update cheaper than delete + insert). */
export async function replaceSearchText(trx: Db, storeId: number, postId: number, text: string): Promise<void> {
  if (isPostgres(trx)) {
    await updatePostgres(trx, { postId, text, keys: storeSearchKeys(storeId, text) });
  } else {
    await deleteSqlite(trx, { postId });
    await deleteStoreTokens(trx, { postId });
    await insertSearchText(trx, storeId, postId, text);
  }
}

export async function deleteSearchText(trx: Db, postId: number): Promise<void> {
  if (isPostgres(trx)) {
    await deletePostgres(trx, { postId });
  } else {
    await deleteSqlite(trx, { postId });
    await deleteStoreTokens(trx, { postId });
  }
}

/** The trigram indexes need three characters to look anything up. */
const INDEXED_LENGTH = TRIGRAM_LENGTH;

/**
 * A condition on `posts` for a post containing every term. Terms of three characters or more
 * go through the index; every term is then checked on the row's text as a plain substring
 * (instr/strpos: no wildcard or query syntax can leak in).
 */
export function matchesTerms(
  eb: ExpressionBuilder<Database, 'posts'>,
  terms: string[],
  postgres: boolean,
  storeId: number,
): Expression<SqlBool> {
  const indexed = terms.filter((t) => [...t].length >= INDEXED_LENGTH);
  if (postgres) {
    // The store's keys of every long term (one array: the post must hold all of them), then
    // strpos, exact for every term. No LIKE: it would let the planner pick the pg_trgm index,
    // whose entries cover every store's posts. The keys are computed here by the function that
    // computes a post's (storeSearchKeys), as SQLite's tokens are, so both engines' searches
    // follow one rule.
    const conditions = terms.map((t) => sql<SqlBool>`strpos(s.text, ${t}) > 0`);
    if (indexed.length > 0)
      conditions.unshift(sql<SqlBool>`s.keys @> ${storeSearchKeys(storeId, indexed.join(' '))}::text[]`);
    return sql<SqlBool>`EXISTS (SELECT 1 FROM post_search s WHERE s.post_id = ${eb.ref('posts.id')} AND ${sql.join(conditions, sql` AND `)})`;
  }
  const checks = sql.join(
    terms.map((t) => sql<SqlBool>`instr(text, ${t}) > 0`),
    sql` AND `,
  );
  if (indexed.length === 0) {
    return sql<SqlBool>`EXISTS (SELECT 1 FROM post_search WHERE rowid = ${eb.ref('posts.id')} AND ${checks})`;
  }
  // The store-keyed index keeps no positions, so a term is found by all of its trigrams (each
  // one token naming this store) and confirmed by instr() on the post's text.
  const match = [...new Set(indexed.flatMap((t) => storeTermTokens(storeId, t)))].join(' AND ');
  return sql<SqlBool>`${eb.ref('posts.id')} IN (SELECT rowid FROM post_search_store WHERE post_search_store MATCH ${match}) AND EXISTS (SELECT 1 FROM post_search WHERE rowid = ${eb.ref('posts.id')} AND ${checks})`;
}
