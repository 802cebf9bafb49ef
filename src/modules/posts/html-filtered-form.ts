/**
 * Recognises a body that is already in the filter's output form: one the filter would return
 * unchanged and without warnings. Bodies read from this API and sent back (a sync, an edit of
 * the title only), and the plain markup most editors produce, are in that form, and a single
 * scan is a small fraction of the cost of parsing and re-serialising them (docs/performance.md).
 *
 * The check is deliberately narrow: whatever it does not recognise exactly goes through the
 * full filter, which stays the only place that decides what is safe. Accepting a body means
 * the filter's output would be the same string, so what the fast path stores is what the
 * filter would have stored. test/unit/html-filtered-form.test.ts holds the two to that, on the
 * XSS corpus and on generated markup.
 *
 * The form, as the filter writes what htmlparser2 parsed:
 * - text without `<`, `>` or control characters other than tab, line feed and carriage return; `&` only as
 *   `&amp;`, `&lt;` or `&gt;` (other entities are decoded on output, so they change);
 * - allowed elements only, lower case, each attribute allowed for its element and written
 *   ` name="value"` with a non-blank value (`alt=""` excepted), no `"`, `<`, `>` or bare `&`;
 * - void elements written `<br />`, every other element closed explicitly, innermost first,
 *   and never opened where the parser would close the open one first (`<p><div>`);
 * - URLs relative or with a scheme the element allows, with nothing a browser might ignore
 *   inside; `class` only as one `language-*` name; no `target` (the filter rewrites `rel`).
 */
import {
  ALLOWED_ATTRIBUTES,
  LANGUAGE_CLASS,
  LINK_SCHEMES,
  MAX_NESTING_DEPTH,
  SCHEME,
  SCHEMES_BY_TAG,
  URL_ATTRIBUTES,
  URL_INVISIBLES,
} from './html-allow-list.js';

/** The elements written `<name ... />`: void in the parser, written with ` />` by the filter. */
const VOID = new Set(['br', 'hr', 'img', 'col']);

/**
 * htmlparser2's rule: opening the key element first closes the open element when it is one of
 * these. Only the allowed elements are listed; a body that would trigger the rule is not in
 * the form (its output gains a closing tag).
 */
const P = ['p'];
const CLOSES_OPEN: Readonly<Record<string, readonly string[]>> = {
  tr: ['tr', 'th', 'td'],
  th: ['th'],
  td: ['thead', 'th', 'td'],
  li: ['li'],
  p: P,
  h1: P,
  h2: P,
  h3: P,
  h4: P,
  h5: P,
  h6: P,
  article: P,
  aside: P,
  blockquote: P,
  div: P,
  dl: P,
  figcaption: P,
  figure: P,
  footer: P,
  header: P,
  hr: P,
  ol: P,
  pre: P,
  section: P,
  table: P,
  ul: P,
  dd: ['dd', 'dt'],
  dt: ['dd', 'dt'],
  tbody: ['thead', 'tbody'],
  tfoot: ['thead', 'tbody'],
};

const [LT, GT, AMP, SLASH, TAB, LF, CR] = ['<', '>', '&', '/', '\t', '\n', '\r'].map((c) => c.charCodeAt(0));
const TEXT_ENTITY = /&(?:amp|lt|gt);/y;
const START_TAG_NAME = /<([a-z][a-z0-9]*)/y;
const ATTRIBUTE = / ([a-z]+)="((?:[^"<>&\x00-\x1f\x7f-\x9f]|&amp;)*)"/y;
const TAG_END = />/y;
const VOID_TAG_END = / \/>/y;

export function isInFilteredForm(html: string): boolean {
  const open: string[] = [];
  let at = 0;
  while (at < html.length) {
    const c = html.charCodeAt(at);
    if (c === LT) {
      at = html.charCodeAt(at + 1) === SLASH ? closeElement(html, at, open) : openElement(html, at, open);
      if (at < 0) return false;
    } else if (c === AMP) {
      TEXT_ENTITY.lastIndex = at;
      if (!TEXT_ENTITY.test(html)) return false;
      at = TEXT_ENTITY.lastIndex;
    } else if (c === GT || (c < 0x20 && c !== TAB && c !== LF && c !== CR) || (c >= 0x7f && c <= 0x9f)) {
      return false;
    } else {
      at++;
    }
  }
  return open.length === 0;
}

/** Returns the index after the end tag, or -1 when it does not close the innermost element. */
function closeElement(html: string, at: number, open: string[]): number {
  const tag = open[open.length - 1];
  if (tag === undefined || !html.startsWith(tag, at + 2) || html.charCodeAt(at + 2 + tag.length) !== GT) return -1;
  open.pop();
  return at + 3 + tag.length;
}

/** Returns the index after the start tag, or -1 when the tag is not in the form. */
function openElement(html: string, at: number, open: string[]): number {
  START_TAG_NAME.lastIndex = at;
  const m = START_TAG_NAME.exec(html);
  if (!m) return -1;
  const tag = m[1];
  const allowed = Object.hasOwn(ALLOWED_ATTRIBUTES, tag) ? ALLOWED_ATTRIBUTES[tag] : null;
  if (!allowed) return -1;
  if (open.length > 0 && CLOSES_OPEN[tag]?.includes(open[open.length - 1])) return -1;
  at = START_TAG_NAME.lastIndex;
  const seen: string[] = [];
  for (;;) {
    ATTRIBUTE.lastIndex = at;
    const a = ATTRIBUTE.exec(html);
    if (!a) break;
    const [, name, raw] = a;
    if (!allowed.includes(name) || seen.includes(name) || !valueInForm(tag, name, raw.replaceAll('&amp;', '&')))
      return -1;
    seen.push(name);
    at = ATTRIBUTE.lastIndex;
  }
  const end = VOID.has(tag) ? VOID_TAG_END : TAG_END;
  end.lastIndex = at;
  if (!end.test(html)) return -1;
  if (!VOID.has(tag)) {
    if (open.length >= MAX_NESTING_DEPTH) return -1;
    open.push(tag);
  }
  return end.lastIndex;
}

function valueInForm(tag: string, name: string, value: string): boolean {
  if (value === '') return name === 'alt';
  if (value.trim() === '' || name === 'target') return false;
  if (name === 'class') return LANGUAGE_CLASS.test(value);
  if (!URL_ATTRIBUTES.has(name)) return true;
  URL_INVISIBLES.lastIndex = 0;
  if (URL_INVISIBLES.test(value) || value.includes('\\')) return false;
  const scheme = SCHEME.exec(value.toLowerCase())?.[1];
  return scheme === undefined || (SCHEMES_BY_TAG[tag] ?? LINK_SCHEMES).includes(scheme);
}
