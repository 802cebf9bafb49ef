/**
 * Post body HTML filter: a streaming allow-list over htmlparser2's parse events.
 *
 * The parser turns the body into start tags, text and end tags (closing what the author left
 * open, as browsers do); each event is checked against the allow-list as it comes and written
 * out in one canonical form, and every removal is named as a warning. Nothing is built in
 * between: no tree, no per-element objects. The allow-list and the warning formats are
 * documented in docs/html-filter.md — keep both in sync.
 *
 * The output and warnings are those of the sanitize-html configuration this replaced, to the
 * byte: test/unit/html-filter-reference.test.ts holds the two to that on the XSS corpus and on
 * generated markup, so stored bodies and the warnings clients see did not change.
 */
import { Parser } from 'htmlparser2';
import {
  ALLOWED_ATTRIBUTES,
  CONTENT_DROPPED_TAGS,
  KEPT_WHEN_EMPTY,
  LANGUAGE_CLASS,
  LINK_SCHEMES,
  MAX_NESTING_DEPTH,
  SCHEME,
  SCHEMES_BY_TAG,
  URL_ATTRIBUTES,
  URL_INVISIBLES,
} from './html-allow-list.js';
import { isInFilteredForm } from './html-filtered-form.js';

export { MAX_NESTING_DEPTH } from './html-allow-list.js';

export interface FilteredHtml {
  html: string;
  warnings: string[];
}

/**
 * Thrown for bodies nested deeper than MAX_NESTING_DEPTH. The parser's cost grows with the
 * square of the nesting depth, so a 1 MiB body of unclosed tags would block the process for
 * tens of seconds; such input is rejected instead of filtered.
 */
export class PostHtmlNestingError extends Error {
  readonly code = 'POST_HTML_NESTING_TOO_DEEP';
  readonly maxDepth = MAX_NESTING_DEPTH;

  constructor() {
    super(`post body HTML nests elements more than ${MAX_NESTING_DEPTH} levels deep`);
    this.name = 'PostHtmlNestingError';
  }
}

/** The parser's void elements: they have no content to keep or drop. */
const VOID_TAGS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** The allowed void elements, written `<br />`; every other kept element gets an end tag. */
const SELF_CLOSING_TAGS: ReadonlySet<string> = new Set(['br', 'hr', 'img', 'col']);

/** Elements whose `class` keeps only LANGUAGE_CLASS names. */
const CLASS_FILTERED_TAGS: ReadonlySet<string> = new Set(['code', 'pre']);

const REQUIRED_BLANK_REL = ['noopener', 'noreferrer'];

/** Names in warnings come from the input; cap them so a warning stays short. */
const MAX_NAME_LENGTH = 64;

/**
 * Unwrapping an element can put two elements next to each other that the parser auto-closes
 * on the next parse (e.g. `<p><font><div>`), so a changed result is filtered again until it is
 * stable. Two extra passes suffice in practice; the bound only guards against a pathological
 * loop.
 */
const MAX_PASSES = 4;

/**
 * Filters a post body against the allow-list and reports what was removed.
 * Pure and deterministic; the result is a fixed point:
 * `filterPostHtml(filterPostHtml(x).html)` returns the same html and no warnings.
 * A body already in that output form is recognised in one scan and returned as it is.
 *
 * @throws PostHtmlNestingError when elements nest deeper than MAX_NESTING_DEPTH.
 */
export function filterPostHtml(input: string): FilteredHtml {
  if (typeof input !== 'string') {
    throw new TypeError('filterPostHtml expects a string');
  }
  return isInFilteredForm(input) ? { html: input, warnings: [] } : sanitizePostHtml(input);
}

/** filterPostHtml without the recognition of bodies in output form: always parses and rewrites. */
export function sanitizePostHtml(input: string): FilteredHtml {
  const warnings = new Set<string>();
  let html = runPass(input, warnings);
  // A pass that removed nothing re-serialises the parse unchanged, so only inputs that lost
  // something need the stability check.
  for (let pass = 1; warnings.size > 0 && pass < MAX_PASSES; pass++) {
    const next = runPass(html, warnings);
    if (next === html) break;
    html = next;
  }
  return { html, warnings: [...warnings] };
}

/** One parse and rewrite; adds its warnings to `warnings` in order of occurrence. */
function runPass(html: string, warnings: Set<string>): string {
  const writer = new AllowListWriter(warnings);
  const parser = new Parser(writer, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return writer.html;
}

/** Receives the parser's events and writes what the allow-list keeps. */
class AllowListWriter {
  html = '';
  /** Open elements, all of them, for the nesting limit. */
  private depth = 0;
  /** Above zero inside an element dropped with its content: its own depth within it. */
  private dropping = 0;
  /**
   * Elements opened outside dropped content. A start tag cut off by the end of the body is
   * still closed by the parser without having been opened; only an end tag matching the
   * innermost of these is written.
   */
  private readonly open: string[] = [];

  constructor(private readonly warnings: Set<string>) {}

  onopentag(tag: string, attribs: Record<string, string>): void {
    if (++this.depth > MAX_NESTING_DEPTH) throw new PostHtmlNestingError();
    // Elements inside dropped content are covered by the warning for the dropped element.
    if (this.dropping > 0) {
      this.dropping++;
      return;
    }
    this.open.push(tag);
    const allowed = Object.hasOwn(ALLOWED_ATTRIBUTES, tag) ? ALLOWED_ATTRIBUTES[tag] : null;
    if (allowed === null) {
      const dropped = CONTENT_DROPPED_TAGS.has(tag);
      this.warnings.add(
        `removed element <${displayName(tag)}>${dropped || VOID_TAGS.has(tag) ? '' : ' (content kept)'}`,
      );
      if (dropped) this.dropping = 1;
      return;
    }
    this.html += `<${tag}${this.attributesOf(tag, allowed, attribs)}${SELF_CLOSING_TAGS.has(tag) ? ' />' : '>'}`;
  }

  ontext(text: string): void {
    if (this.dropping === 0) this.html += escapeText(text);
  }

  onclosetag(tag: string): void {
    this.depth--;
    if (this.dropping > 0 && --this.dropping > 0) return;
    if (this.open.length === 0 || this.open[this.open.length - 1] !== tag) return;
    this.open.pop();
    if (Object.hasOwn(ALLOWED_ATTRIBUTES, tag) && !SELF_CLOSING_TAGS.has(tag)) this.html += `</${tag}>`;
  }

  /** The kept attributes of an allowed element, written ` name="value"`, in their order. */
  private attributesOf(tag: string, allowed: readonly string[], attribs: Record<string, string>): string {
    let out = '';
    // Links opening a new browsing context must not expose `window.opener`.
    const blank = tag === 'a' && attribs.target !== undefined && attribs.target.trim().toLowerCase() === '_blank';
    let hasRel = false;
    for (const name of Object.keys(attribs)) {
      const value = this.keptValue(tag, allowed, name, attribs[name], blank);
      if (value === null) continue;
      if (name === 'rel') hasRel = true;
      if (value !== '') out += ` ${name}="${escapeAttribute(value)}"`;
      else out += name === 'alt' ? ' alt=""' : ` ${name}`;
    }
    // Adding rel is not a removal, so it is not reported.
    if (blank && !hasRel) out += ` rel="${REQUIRED_BLANK_REL.join(' ')}"`;
    return out;
  }

  /**
   * The value an attribute is written with, or null when it is removed (and reported). The
   * checks run in a fixed order, and the first that removes the attribute names the warning.
   */
  private keptValue(
    tag: string,
    allowed: readonly string[],
    name: string,
    original: string,
    blank: boolean,
  ): string | null {
    if (!allowed.includes(name))
      return this.remove(`removed attribute ${displayName(name)} from <${displayName(tag)}>`);
    let value = original;
    const isUrl = URL_ATTRIBUTES.has(name);
    if (isUrl && hasDisguisedScheme(tag, value)) return this.remove(describeRemovedAttribute(tag, name, original));
    if (tag === 'a' && name === 'target') {
      if (!blank) return this.remove('removed disallowed value of target from <a>');
      value = '_blank';
    }
    if (tag === 'a' && name === 'rel' && blank) value = completeRel(value);
    if (name === 'class' && CLASS_FILTERED_TAGS.has(tag)) {
      const names = value.split(/\s+/).filter(Boolean);
      const kept = names.filter((n) => LANGUAGE_CLASS.test(n));
      if (kept.length !== names.length) {
        this.warnings.add(`removed disallowed value of class from <${tag}>`);
        if (kept.length === 0) return null;
      }
      // Written single-spaced; a class of nothing but white space is empty.
      value = kept.join(' ');
    }
    if (value === '' && !KEPT_WHEN_EMPTY.has(name)) return this.remove(describeRemovedAttribute(tag, name, original));
    if (isUrl && hasDisallowedScheme(tag, value)) return this.remove(describeRemovedAttribute(tag, name, original));
    return value;
  }

  private remove(warning: string): null {
    this.warnings.add(warning);
    return null;
  }
}

/** `rel` of a `target="_blank"` link: its own values, then whichever of noopener and noreferrer it lacks. */
function completeRel(value: string): string {
  const rel = value.split(/\s+/).filter(Boolean);
  const missing = REQUIRED_BLANK_REL.filter((token) => !rel.some((t) => t.toLowerCase() === token));
  return [...rel, ...missing].join(' ');
}

/**
 * A scheme the element does not allow once every invisible character is ignored (Unicode
 * spaces, line and paragraph separators, zero-width and bidi marks), as some browsers have.
 */
function hasDisguisedScheme(tag: string, value: string): boolean {
  const scheme = SCHEME.exec(value.replace(URL_INVISIBLES, '').toLowerCase())?.[1];
  return scheme !== undefined && !(SCHEMES_BY_TAG[tag] ?? LINK_SCHEMES).includes(scheme);
}

/**
 * A scheme the element does not allow once ASCII controls and spaces and embedded comments are
 * ignored, the characters browsers skip and old XML data islands honoured. Relative and
 * protocol-relative URLs have no scheme and pass.
 */
function hasDisallowedScheme(tag: string, value: string): boolean {
  let href = value.replace(/[\x00-\x20]+/g, '');
  for (let start = href.indexOf('<!--'); start !== -1; start = href.indexOf('<!--')) {
    const end = href.indexOf('-->', start + 4);
    if (end === -1) break;
    href = href.slice(0, start) + href.slice(end + 3);
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(href)?.[1];
  return scheme !== undefined && !(SCHEMES_BY_TAG[tag] ?? LINK_SCHEMES).includes(scheme.toLowerCase());
}

/** Names the reason an allowed attribute of a kept element was removed. */
function describeRemovedAttribute(tag: string, attr: string, value: string): string {
  const t = displayName(tag);
  if (value.trim() === '') return `removed empty attribute ${attr} from <${t}>`;
  if (URL_ATTRIBUTES.has(attr)) return `removed unsafe URL from ${attr} of <${t}>`;
  return `removed disallowed value of ${attr} from <${t}>`;
}

function displayName(name: string): string {
  return name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name;
}

const TEXT_SPECIALS = /[&<>]/;
const ATTRIBUTE_SPECIALS = /[&<>"]/;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as decoded by the parser, written back with only `&`, `<` and `>` escaped. */
function escapeText(text: string): string {
  return TEXT_SPECIALS.test(text) ? text.replace(/[&<>]/g, (c) => ESCAPES[c]) : text;
}

/** An attribute value, written double-quoted. */
function escapeAttribute(value: string): string {
  return ATTRIBUTE_SPECIALS.test(value) ? value.replace(/[&<>"]/g, (c) => ESCAPES[c]) : value;
}
