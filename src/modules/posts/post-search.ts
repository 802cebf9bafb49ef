// Free-text search over posts (`q` of GET /v1/blog/posts). Each post has one row of search text
// (the distinct words of its title, summary and body without markup, lower-cased), written with the post in the same
// transaction. SQLite keeps it in an FTS5 table with the trigram tokenizer (`post_search`, rowid =
// post id); PostgreSQL in a table with a pg_trgm GIN index (migration 0006-post-search). Both
// indexes find the posts holding a term of three characters or more; every term is then
// checked with instr/strpos on the same text, which is also how shorter terms (a two-character
// Chinese word) are found.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { queryTemplate, type Db } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';
import type { Database } from '../../db/schema.js';

/** Entities the filter's output may carry in text (see html-filtered-form.ts), plus the common ones. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * Tags of the elements inside a line of text: they vanish (`pan<em>cake</em>s` is "pancakes").
 * The filter writes tag names in lower case.
 */
const INLINE_TAGS = /<\/?(?:a|abbr|b|cite|code|del|em|i|ins|kbd|mark|q|s|small|span|strong|sub|sup|u)(?=[\s/>])[^>]*>/g;

/**
 * The searchable text of a post. The body is the filter's output, in which `<` and `>` occur
 * only as tag delimiters (text and attribute values carry them as entities), so removing
 * everything between them removes exactly the markup. Other tags (blocks, line breaks, images)
 * become spaces so that words of adjacent blocks do not run together. It runs in every create,
 * so it is two regular expressions (about 50 µs for a 5 KB body; a replace callback per tag
 * cost twice that).
 */
export function searchText(title: string, summary: string | null, bodyHtml: string): string {
  let body = bodyHtml.replace(INLINE_TAGS, '').replace(/<[^>]*>/g, ' ');
  if (body.includes('&')) body = body.replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? decodeNumeric(name) ?? m);
  // A term holds no white space, so it can only occur inside one word: each distinct word once
  // finds the same posts as the whole text, and indexing costs per character (English prose
  // repeats most of its words; Chinese, without spaces, keeps its length).
  return [...new Set(`${title} ${summary ?? ''} ${body}`.toLowerCase().split(WHITE_SPACE))].join(' ').trim();
}

/** What separates terms in a query and words in the text: the same definition on both sides. */
const WHITE_SPACE = /\s+/u;

function decodeNumeric(name: string): string | undefined {
  const m = /^#(x[0-9a-f]+|[0-9]+)$/i.exec(name);
  if (!m) return undefined;
  const code = m[1][0] === 'x' || m[1][0] === 'X' ? parseInt(m[1].slice(1), 16) : Number(m[1]);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** The terms of a query: split on white space, lower-cased like the text, duplicates dropped. */
export function searchTerms(q: string): string[] {
  return [...new Set(q.toLowerCase().split(WHITE_SPACE).filter((t) => t.length > 0))];
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
