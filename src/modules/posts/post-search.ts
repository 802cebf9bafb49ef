// Free-text search over posts (`q` of GET /v1/blog/posts). Each post has one row of search text
// (the distinct words of its title, summary and body without markup, lower-cased), written with the post in the same
// transaction. SQLite keeps it in an FTS5 table with the trigram tokenizer (`post_search`, rowid =
// post id); PostgreSQL in a table with a pg_trgm GIN index (migration 0009-post-search). Both
// indexes find the posts holding a term of three characters or more; every term is then
// checked with instr/strpos on the same text, which is also how shorter terms (a two-character
// Chinese word) are found.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { queryTemplate } from '../../db/query-template.js';
import { isPostgres } from '../../db/engine-of.js';
import type { Database } from '../../db/schema.js';

export { searchTerms, searchText } from '../../lib/search-text.js';

type SearchRow = { postId: number; text: string };
const insertSqlite = queryTemplate((db, $: SearchRow) => db.insertInto('post_search').values({ rowid: $.postId, text: $.text }));
const deleteSqlite = queryTemplate((db, $: { postId: number }) => db.deleteFrom('post_search').where('rowid', '=', $.postId));
const insertPostgres = queryTemplate((db, $: SearchRow) => db.insertInto('post_search').values({ post_id: $.postId, text: $.text }));
const updatePostgres = queryTemplate((db, $: SearchRow) => db.updateTable('post_search').set({ text: $.text }).where('post_id', '=', $.postId));
const deletePostgres = queryTemplate((db, $: { postId: number }) => db.deleteFrom('post_search').where('post_id', '=', $.postId));

/** The search text of a new post: one statement in the creating transaction. */
export async function insertSearchText(trx: Db, postId: number, text: string): Promise<void> {
  if (isPostgres(trx)) await insertPostgres(trx, { postId, text });
  else await insertSqlite(trx, { postId, text });
}

/** Replaces a post's search text (FTS5 has no in-place update cheaper than delete + insert). */
export async function replaceSearchText(trx: Db, postId: number, text: string): Promise<void> {
  if (isPostgres(trx)) {
    await updatePostgres(trx, { postId, text });
  } else {
    await deleteSqlite(trx, { postId });
    await insertSqlite(trx, { postId, text });
  }
}

export async function deleteSearchText(trx: Db, postId: number): Promise<void> {
  if (isPostgres(trx)) await deletePostgres(trx, { postId });
  else await deleteSqlite(trx, { postId });
}

/** The trigram indexes need three characters to look anything up. */
const INDEXED_LENGTH = 3;

/** The distinct three-character sequences of a term, quoted for an FTS5 query. */
function trigramsOf(term: string): string[] {
  const chars = [...term];
  const out = new Set<string>();
  for (let i = 0; i + INDEXED_LENGTH <= chars.length; i++) out.add(`"${chars.slice(i, i + INDEXED_LENGTH).join('').replaceAll('"', '""')}"`);
  return [...out];
}

/**
 * A condition on `posts` for a post containing every term. Terms of three characters or more
 * go through the index; every term is then checked on the row's text as a plain substring
 * (instr/strpos: no wildcard or query syntax can leak in).
 */
export function matchesTerms(eb: ExpressionBuilder<Database, 'posts'>, terms: string[], postgres: boolean): Expression<SqlBool> {
  const indexed = terms.filter((t) => [...t].length >= INDEXED_LENGTH);
  if (postgres) {
    // pg_trgm's GIN index serves LIKE; strpos is exact for every term (LIKE already is for long ones).
    const conditions = terms.map((t) => (indexed.includes(t) ? sql<SqlBool>`s.text LIKE ${`%${escapeLike(t)}%`}` : sql<SqlBool>`strpos(s.text, ${t}) > 0`));
    return sql<SqlBool>`EXISTS (SELECT 1 FROM post_search s WHERE s.post_id = ${eb.ref('posts.id')} AND ${sql.join(conditions, sql` AND `)})`;
  }
  const checks = sql.join(
    terms.map((t) => sql<SqlBool>`instr(text, ${t}) > 0`),
    sql` AND `,
  );
  if (indexed.length === 0) {
    return sql<SqlBool>`EXISTS (SELECT 1 FROM post_search WHERE rowid = ${eb.ref('posts.id')} AND ${checks})`;
  }
  // The FTS5 table keeps no positions (detail=none), so a term is found by all of its trigrams
  // (each one token) and confirmed by instr().
  const match = [...new Set(indexed.flatMap(trigramsOf))].join(' AND ');
  return sql<SqlBool>`${eb.ref('posts.id')} IN (SELECT rowid FROM post_search WHERE post_search MATCH ${match} AND ${checks})`;
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}
