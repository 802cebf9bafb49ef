// Free-text search over posts (`q` of GET /v1/blog/posts). Each post has one row of search text
// (title, summary and body without markup, lower-cased), written with the post in the same
// transaction. SQLite keeps it in an FTS5 table with the trigram tokenizer (`post_search`, rowid =
// post id); PostgreSQL in a table with a pg_trgm GIN index (migration 0006-post-search). Both
// indexes find substrings of three characters or more; shorter terms (a two-character Chinese
// word) are checked with instr/strpos on the same text, among the posts the other terms found.
import { PostgresAdapter, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { queryTemplate, type Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** Entities the filter's output may carry in text (see html-filtered-form.ts), plus the common ones. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * The searchable text of a post. The body is the filter's output, in which `<` and `>` occur
 * only as tag delimiters (text and attribute values carry them as entities), so removing
 * everything between them removes exactly the markup. Tags become spaces so that words of
 * adjacent blocks do not run together.
 */
export function searchText(title: string, summary: string | null, bodyHtml: string): string {
  const body = bodyHtml.replace(/<[^>]*>/g, ' ').replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? decodeNumeric(name) ?? m);
  return `${title}\n${summary ?? ''}\n${body}`.toLowerCase();
}

function decodeNumeric(name: string): string | undefined {
  const m = /^#(x[0-9a-f]+|[0-9]+)$/i.exec(name);
  if (!m) return undefined;
  const code = m[1][0] === 'x' || m[1][0] === 'X' ? parseInt(m[1].slice(1), 16) : Number(m[1]);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** The terms of a query: split on white space, lower-cased like the text, duplicates dropped. */
export function searchTerms(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/\s+/u).filter((t) => t.length > 0))];
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const insertSqlite = queryTemplate((db, $) => db.insertInto('post_search').values({ rowid: $(0), text: $(1) }));
const deleteSqlite = queryTemplate((db, $) => db.deleteFrom('post_search').where('rowid', '=', $(0)));
const insertPostgres = queryTemplate((db, $) => db.insertInto('post_search').values({ post_id: $(0), text: $(1) }));
const updatePostgres = queryTemplate((db, $) => db.updateTable('post_search').set({ text: $(1) }).where('post_id', '=', $(0)));
const deletePostgres = queryTemplate((db, $) => db.deleteFrom('post_search').where('post_id', '=', $(0)));

/** The search text of a new post: one statement in the creating transaction. */
export async function insertSearchText(trx: Db, postId: number, text: string): Promise<void> {
  if (isPostgres(trx)) await insertPostgres(trx, [postId, text]);
  else await insertSqlite(trx, [postId, text]);
}

/** Replaces a post's search text (FTS5 has no in-place update cheaper than delete + insert). */
export async function replaceSearchText(trx: Db, postId: number, text: string): Promise<void> {
  if (isPostgres(trx)) {
    await updatePostgres(trx, [postId, text]);
  } else {
    await deleteSqlite(trx, [postId]);
    await insertSqlite(trx, [postId, text]);
  }
}

export async function deleteSearchText(trx: Db, postId: number): Promise<void> {
  if (isPostgres(trx)) await deletePostgres(trx, [postId]);
  else await deleteSqlite(trx, [postId]);
}

/** The trigram indexes need three characters to look anything up. */
const INDEXED_LENGTH = 3;

/**
 * A condition on `posts` for a post containing every term. The terms of three characters or more
 * go through the index; the shorter ones are checked on the same row's text.
 */
export function matchesTerms(eb: ExpressionBuilder<Database, 'posts'>, terms: string[], postgres: boolean): Expression<SqlBool> {
  const long = terms.filter((t) => [...t].length >= INDEXED_LENGTH);
  const short = terms.filter((t) => [...t].length < INDEXED_LENGTH);
  if (postgres) {
    const conditions = [
      ...long.map((t) => sql<SqlBool>`s.text LIKE ${`%${escapeLike(t)}%`}`),
      ...short.map((t) => sql<SqlBool>`strpos(s.text, ${t}) > 0`),
    ];
    return sql<SqlBool>`EXISTS (SELECT 1 FROM post_search s WHERE s.post_id = ${eb.ref('posts.id')} AND ${sql.join(conditions, sql` AND `)})`;
  }
  const shortChecks = short.map((t) => sql<SqlBool>` AND instr(s.text, ${t}) > 0`);
  if (long.length === 0) {
    return sql<SqlBool>`EXISTS (SELECT 1 FROM post_search s WHERE s.rowid = ${eb.ref('posts.id')}${sql.join(shortChecks, sql``)})`;
  }
  // One FTS5 query: every long term as a quoted string (a substring for the trigram tokenizer).
  const match = long.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
  return sql<SqlBool>`${eb.ref('posts.id')} IN (SELECT s.rowid FROM post_search s WHERE s.text MATCH ${match}${sql.join(shortChecks, sql``)})`;
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}
