// The searchable text of a post and the terms of a query (`q` of GET /v1/blog/posts): pure text
// rules, shared by the posts module and the migration that gave existing posts their text.
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
 * so it is two regular expressions (a replace callback per tag cost twice as much) and one scan
 * for the words (docs/performance.md).
 */
export function searchText(title: string, summary: string | null, bodyHtml: string): string {
  let body = bodyHtml.replace(INLINE_TAGS, '').replace(/<[^>]*>/g, ' ');
  if (body.includes('&'))
    body = body.replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? decodeNumeric(name) ?? m);
  // A term holds no white space, so it can only occur inside one word: each distinct word once
  // finds the same posts as the whole text, and indexing costs per character (English prose
  // repeats most of its words; Chinese, without spaces, keeps its length).
  return distinctWords(`${title} ${summary ?? ''} ${body}`.toLowerCase()).join(' ');
}

/**
 * What separates terms in a query and words in the text, the same definition on both sides:
 * JavaScript's white space (`\s`), tested per character code. Splitting with the regular
 * expression `/\s+/u` cost more than half of searchText (docs/performance.md).
 */
export function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** The words of `text` (runs of characters between white space), each once, in the order they first occur. */
function distinctWords(text: string): string[] {
  const seen = new Set<string>();
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !isWhiteSpace(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      seen.add(text.slice(start, i));
      start = -1;
    }
  }
  return [...seen];
}

function decodeNumeric(name: string): string | undefined {
  const m = /^#(x[0-9a-f]+|[0-9]+)$/i.exec(name);
  if (!m) return undefined;
  const code = m[1][0] === 'x' || m[1][0] === 'X' ? parseInt(m[1].slice(1), 16) : Number(m[1]);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** The terms of a query: split on white space, lower-cased like the text, duplicates dropped. */
export function searchTerms(q: string): string[] {
  return distinctWords(q.toLowerCase());
}

/** Characters a trigram spans: the index needs a term this long to look anything up. */
export const TRIGRAM_LENGTH = 3;

const hex6 = (codePoint: number) => codePoint.toString(16).padStart(6, '0');
/** hex6 of the code units below 0x800 (Latin, Greek, Cyrillic…), spelled once. */
const HEX6_BELOW_0800 = Array.from({ length: 0x800 }, (_, code) => hex6(code));
const hex6Of = (code: number) => (code < 0x800 ? HEX6_BELOW_0800[code] : hex6(code));

/**
 * The index token of one trigram of one store: `s<store>t<three code points in hex>`, letters and
 * digits only (one token for FTS5's ascii tokenizer). Every token names its store, so a store's
 * lookup reads only its own posts' entries: its cost never depends on other stores' posts.
 */
function trigramToken(storeId: number, chars: string[], at: number): string {
  return `s${storeId}t${hex6(chars[at].codePointAt(0)!)}${hex6(chars[at + 1].codePointAt(0)!)}${hex6(chars[at + 2].codePointAt(0)!)}`;
}

/** UTF-16 surrogates: a word holding none has one code point per string index. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The distinct trigrams of a post's search text: of each word, every run of three characters
 * (code points), once, in the order they first occur. It runs in every create and every edit of
 * the text, so the trigrams are made distinct before they are spelled as tokens or keys.
 */
function distinctTrigrams(text: string): Set<string> {
  const trigrams = new Set<string>();
  for (const word of text.split(' ')) {
    if (word.length < TRIGRAM_LENGTH) continue;
    if (!SURROGATE.test(word)) {
      for (let i = 0; i + TRIGRAM_LENGTH <= word.length; i++) trigrams.add(word.slice(i, i + TRIGRAM_LENGTH));
    } else {
      const chars = [...word];
      for (let i = 0; i + TRIGRAM_LENGTH <= chars.length; i++) trigrams.add(chars[i] + chars[i + 1] + chars[i + 2]);
    }
  }
  return trigrams;
}

/** SQLite: the store-keyed FTS5 tokens of a post's search text, space-separated. */
export function storeSearchTokens(storeId: number, text: string): string {
  const tokens: string[] = [];
  const prefix = `s${storeId}t`;
  for (const trigram of distinctTrigrams(text)) {
    // Three string indexes are three code points unless a surrogate pair is among them.
    tokens.push(
      trigram.length === TRIGRAM_LENGTH
        ? prefix + hex6Of(trigram.charCodeAt(0)) + hex6Of(trigram.charCodeAt(1)) + hex6Of(trigram.charCodeAt(2))
        : trigramToken(storeId, [...trigram], 0),
    );
  }
  return tokens.join(' ');
}

/**
 * PostgreSQL: the store-keyed keys of a post's search text (`<store>:<trigram>`, the elements of
 * `post_search.keys`), the same trigrams as storeSearchTokens. The SQL function
 * post_search_keys() computes the same set (migrations 0013 and 0017); it is kept for writers
 * that give no keys (migration 0020), and test/api/search-keys-parity.test.ts holds the two equal.
 */
export function storeSearchKeys(storeId: number, text: string): string[] {
  const prefix = `${storeId}:`;
  const keys: string[] = [];
  for (const trigram of distinctTrigrams(text)) keys.push(prefix + trigram);
  return keys;
}

/** The store-keyed tokens a post holding `term` (of TRIGRAM_LENGTH characters or more) has. */
export function storeTermTokens(storeId: number, term: string): string[] {
  const chars = [...term];
  const tokens = new Set<string>();
  for (let i = 0; i + TRIGRAM_LENGTH <= chars.length; i++) tokens.add(trigramToken(storeId, chars, i));
  return [...tokens];
}
