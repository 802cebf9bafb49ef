/**
 * The reference filter: the post body allow-list expressed as sanitize-html options, with the
 * sanitizer's decisions observed through its hooks to name every removal as a warning. This was
 * the service's filter until the streaming one (src/modules/posts/html-filter.ts) replaced it
 * for speed; it stays here as the independent implementation the streaming filter is held to,
 * output and warnings alike (test/unit/html-filter-reference.test.ts), and as a row of
 * `npm run bench -- --filters`.
 */
import sanitizeHtml from 'sanitize-html';
import {
  ALLOWED_ATTRIBUTES,
  LANGUAGE_CLASS,
  LINK_SCHEMES,
  MAX_NESTING_DEPTH,
  SCHEME,
  SCHEMES_BY_TAG,
  URL_ATTRIBUTES,
  URL_INVISIBLES,
} from '../../src/modules/posts/html-allow-list.js';
import { PostHtmlNestingError, type FilteredHtml } from '../../src/modules/posts/html-filter.js';

/** Elements whose `class` keeps only LANGUAGE_CLASS names. */
const CLASS_FILTERED_TAGS: ReadonlySet<string> = new Set(['code', 'pre']);

/**
 * Disallowed elements whose text must vanish with them: raw-text elements
 * (script, style, ...), foreign content (svg, math) and embedded or inert
 * content that would otherwise leak source code or fallback markup as
 * visible text. Other disallowed elements are unwrapped and keep their text.
 */
const CONTENT_DROPPED_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'title',
  'textarea',
  'option',
  'select',
  'datalist',
  'iframe',
  'frameset',
  'object',
  'applet',
  'svg',
  'math',
]);

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

const REQUIRED_BLANK_REL = ['noopener', 'noreferrer'];

/** Names in warnings come from the input; cap them so a warning stays short. */
const MAX_NAME_LENGTH = 64;

/**
 * Unwrapping an element can put two elements next to each other that the
 * parser auto-closes on the next parse (e.g. `<p><font><div>`), so a changed
 * result is filtered again until it is stable. Two extra passes suffice in
 * practice; the bound only guards against a pathological loop.
 */
const MAX_PASSES = 4;

const BASE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: Object.keys(ALLOWED_ATTRIBUTES),
  // The '*' entry matters: without it sanitize-html skips attribute
  // processing (and our observation of it) for tags missing from the map.
  allowedAttributes: { '*': [], ...cloneAttributeMap(ALLOWED_ATTRIBUTES) },
  allowedClasses: { code: [LANGUAGE_CLASS], pre: [LANGUAGE_CLASS] },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { ...SCHEMES_BY_TAG },
  allowedSchemesAppliedToAttributes: [...URL_ATTRIBUTES],
  allowProtocolRelative: true,
  // allowedEmptyAttributes keeps its default ['alt'] (not in the installed
  // typings), so a decorative `alt=""` survives while other empty
  // non-boolean attributes are removed.
  //
  // `col` is void too; without it the sanitizer would emit a stray `</col>`.
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'col'],
  disallowedTagsMode: 'discard',
  nonTextTags: [...CONTENT_DROPPED_TAGS],
  allowVulnerableTags: false,
  enforceHtmlBoundary: false,
};

/** The whole filter through sanitize-html (no recognition of bodies already in output form). */
export function referenceFilterHtml(input: string): FilteredHtml {
  const warnings = new Set<string>();
  let html = runPass(input, warnings);
  // A pass that removed nothing re-serialises the parse tree unchanged, so only
  // inputs that lost something need the stability check.
  for (let pass = 1; warnings.size > 0 && pass < MAX_PASSES; pass++) {
    const next = runPass(html, warnings);
    if (next === html) break;
    html = next;
  }
  return { html, warnings: [...warnings] };
}

/** What the sanitizer was shown for one start tag and what it did with it. */
interface TagRecord {
  tag: string;
  /** Attribute values as parsed, before the sanitizer touched them. */
  original: Record<string, string>;
  /** The object the sanitizer deletes rejected attributes from. */
  live: sanitizeHtml.Attributes;
  /** False when the tag sat inside content dropped with a removed element. */
  reached: boolean;
  /** True once the sanitizer emitted the element. */
  kept: boolean;
  /** Warnings from our own value normalisation, keyed by attribute. */
  notes: Map<string, string>;
}

/** One sanitizer run; adds its warnings to `warnings` in order of occurrence. */
function runPass(html: string, warnings: Set<string>): string {
  const records: TagRecord[] = [];
  const byAttribs = new Map<sanitizeHtml.Attributes, TagRecord>();
  // The open/close hooks mirror the parser's open-element stack exactly.
  let depth = 0;

  const output = sanitizeHtml(html, {
    ...BASE_OPTIONS,
    // Called for every start tag, including those inside dropped content.
    onOpenTag(tag, attribs) {
      if (++depth > MAX_NESTING_DEPTH) throw new PostHtmlNestingError();
      const record: TagRecord = {
        tag,
        original: { ...attribs },
        live: attribs,
        reached: false,
        kept: false,
        notes: new Map(),
      };
      records.push(record);
      byAttribs.set(attribs, record);
    },
    onCloseTag() {
      depth--;
    },
    // Called only for tags the sanitizer actually evaluates (not for those
    // inside dropped content); must hand back the same attribs object so the
    // sanitizer's deletions stay observable.
    transformTags: {
      '*': (tag, attribs) => {
        const record = byAttribs.get(attribs);
        if (record) {
          record.reached = true;
          normaliseAttributes(record);
        }
        return { tagName: tag, attribs };
      },
    },
    // Called when an emitted element closes; never for removed ones.
    exclusiveFilter(frame) {
      const record = byAttribs.get(frame.attribs);
      if (record) record.kept = true;
      return false;
    },
  });

  for (const record of records) collectWarnings(record, warnings);
  return output;
}

/**
 * Value rules sanitize-html cannot express without leaving broken markup
 * behind (a rejected `target` value would be emitted as a bare `target`),
 * without hiding the change (class filtering is not observable from outside)
 * or as strictly as wanted (scheme detection). The sanitizer's own checks
 * still run afterwards.
 */
function normaliseAttributes(record: TagRecord): void {
  rejectDisguisedSchemes(record);
  if (record.tag === 'a') normaliseLinkTarget(record);
  if (CLASS_FILTERED_TAGS.has(record.tag)) normaliseLanguageClass(record);
}

/** Drops URLs whose scheme is disallowed once invisible characters are ignored. */
function rejectDisguisedSchemes(record: TagRecord): void {
  const schemes = SCHEMES_BY_TAG[record.tag] ?? LINK_SCHEMES;
  for (const [attr, value] of Object.entries(record.live)) {
    if (!URL_ATTRIBUTES.has(attr) || !isAllowedAttribute(record.tag, attr)) continue;
    const scheme = SCHEME.exec(value.replace(URL_INVISIBLES, '').toLowerCase())?.[1];
    if (scheme !== undefined && !schemes.includes(scheme)) {
      delete record.live[attr];
      record.notes.set(attr, describeRemovedAttribute(record.tag, attr, value));
    }
  }
}

/** Only `target="_blank"` is allowed, and it must not expose `window.opener`. */
function normaliseLinkTarget(record: TagRecord): void {
  const attribs = record.live;
  if (attribs.target === undefined) return;
  if (attribs.target.trim().toLowerCase() !== '_blank') {
    delete attribs.target;
    record.notes.set('target', `removed disallowed value of target from <a>`);
    return;
  }
  attribs.target = '_blank';
  const rel = (attribs.rel ?? '').split(/\s+/).filter(Boolean);
  const missing = REQUIRED_BLANK_REL.filter((token) => !rel.some((t) => t.toLowerCase() === token));
  if (missing.length > 0) attribs.rel = [...rel, ...missing].join(' ');
}

/** Keeps only `language-*` class names, mirroring the sanitizer's allowedClasses rule. */
function normaliseLanguageClass(record: TagRecord): void {
  const value = record.live.class;
  if (value === undefined) return;
  const names = value.split(/\s+/).filter(Boolean);
  const kept = names.filter((name) => LANGUAGE_CLASS.test(name));
  if (kept.length === names.length) return;
  record.notes.set('class', `removed disallowed value of class from <${displayName(record.tag)}>`);
  if (kept.length === 0) delete record.live.class;
  else record.live.class = kept.join(' ');
}

function collectWarnings(record: TagRecord, warnings: Set<string>): void {
  // Tags inside dropped content are covered by the warning for the dropped element.
  if (!record.reached) return;
  if (!record.kept) {
    warnings.add(describeRemovedElement(record.tag));
    return;
  }
  for (const [attr, value] of Object.entries(record.original)) {
    const note = record.notes.get(attr);
    if (note !== undefined) warnings.add(note);
    else if (!Object.hasOwn(record.live, attr)) warnings.add(describeRemovedAttribute(record.tag, attr, value));
  }
}

function describeRemovedElement(tag: string): string {
  const name = displayName(tag);
  return CONTENT_DROPPED_TAGS.has(tag) || VOID_TAGS.has(tag)
    ? `removed element <${name}>`
    : `removed element <${name}> (content kept)`;
}

/** Names the reason for a deletion the sanitizer made on an element it kept. */
function describeRemovedAttribute(tag: string, attr: string, value: string): string {
  const t = displayName(tag);
  const a = displayName(attr);
  if (!isAllowedAttribute(tag, attr)) return `removed attribute ${a} from <${t}>`;
  if (value.trim() === '') return `removed empty attribute ${a} from <${t}>`;
  if (URL_ATTRIBUTES.has(attr)) return `removed unsafe URL from ${a} of <${t}>`;
  return `removed disallowed value of ${a} from <${t}>`;
}

function isAllowedAttribute(tag: string, attr: string): boolean {
  return Object.hasOwn(ALLOWED_ATTRIBUTES, tag) && ALLOWED_ATTRIBUTES[tag].includes(attr);
}

function displayName(name: string): string {
  return name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name;
}

/** The option types want mutable arrays; copies keep the allow-list table itself read-only. */
function cloneAttributeMap(map: Readonly<Record<string, readonly string[]>>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(map).map(([tag, attrs]) => [tag, [...attrs]]));
}
