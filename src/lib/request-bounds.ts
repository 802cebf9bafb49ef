// Limits that bound the work one request can cause, whatever its shape (docs/api-behaviour.md,
// "Bounded work per request").

/** At most this many `details` in an error answer; the envelope says when more were found. */
export const MAX_DETAILS = 100;

/**
 * Longest `field` or `issue` of an error answer, in characters (Unicode code points). Both may
 * echo input (an unknown field's name, a list of ids); a longer one is cut to its first 199
 * characters followed by `…` (U+2026), 200 in all, never inside a surrogate pair.
 */
export const MAX_DETAIL_TEXT_CHARS = 200;

/**
 * Most bytes the `details` of one error answer take as JSON (each detail counted as sent, with
 * its comma). Details past it are left out, as past MAX_DETAILS, so that a whole answer stays
 * under 16 KB: one detail cut to MAX_DETAIL_TEXT_CHARS takes at most about 2.5 KB (every
 * character escaped as `\u00XX`), and everything else in the envelope is the catalogue's text,
 * the request id (at most 64 characters) and a few fixed fields.
 */
export const MAX_DETAILS_JSON_BYTES = 12_000;

/** Deepest nesting of arrays and objects a JSON body may have (the outermost object is level 1). */
export const MAX_JSON_DEPTH = 32;

/**
 * Most values a JSON body may hold (object members and array items, counted at every depth).
 * What a JSON body costs to parse and check grows with its values, not its bytes: a body of
 * long strings is cheap, one of many tiny values is not. No body the API takes holds more than
 * a few hundred.
 */
export const MAX_JSON_VALUES = 10_000;

/** Largest JSON body of an operation that carries no post HTML (categories, webhooks, publish…). */
export const SMALL_JSON_BODY_BYTES = 64 * 1024;

/** JSON spells a byte of text in at most 6 (`\u00XX`; a 4-byte character as two `\uXXXX`, 12). */
const JSON_BYTES_PER_TEXT_BYTE = 6;

/** Room for a post's other fields (each bounded by its schema) and the formatting between them. */
const POST_OTHER_FIELDS_BYTES = 1024 * 1024;

/**
 * The longest JSON body a post create or update can need when its body_html may hold
 * `bodyMaxBytes` bytes (the store's limits.body_max_bytes): a longer Content-Length is refused
 * before a byte is read, so a store's own limit, not MAX_JSON_BODY_BYTES, bounds what it makes
 * the server receive and parse.
 */
export function postBodyCeiling(bodyMaxBytes: number): number {
  return JSON_BYTES_PER_TEXT_BYTE * bodyMaxBytes + POST_OTHER_FIELDS_BYTES;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * What is wrong with the shape of a JSON body, if anything: nesting deeper than `maxDepth` or
 * more than `maxValues` values. One pass over the bytes before they are decoded or parsed, no
 * recursion and no allocation, so a refused body is never turned into text and nothing
 * recursive sees it; it stops at the first value or level too many. Strings are skipped with
 * `indexOf` (the structural characters are ASCII, and no byte of a multi-byte UTF-8 character
 * is), so a body that is mostly one long string, as a post's HTML is, costs little more than a
 * memory scan. Brackets and commas inside strings do not count; malformed text is left for the
 * parser to refuse.
 */
export function jsonShapeProblem(body: Buffer, maxDepth: number, maxValues: number): 'depth' | 'values' | null {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) i = closingQuote(body, i);
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (c === 0x2c) {
      if (++values > maxValues) return 'values';
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return null;
}

/** Where the string opened at `open` ends (its closing quote), or the body's end if it does not. */
function closingQuote(body: Buffer, open: number): number {
  let at = open;
  for (;;) {
    at = body.indexOf(QUOTE, at + 1);
    if (at === -1) return body.length;
    // Escaped when an odd number of backslashes precede it. Each run of backslashes lies between
    // two quotes, so it is counted once: the scan stays linear.
    let backslashes = 0;
    for (let k = at - 1; k > open && body[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
