// What a post body may contain (docs/html-filter.md): shared by the filter and by the check that
// recognises bodies already in the filter's output form.

/** Deepest element nesting accepted; far deeper than any real article. */
export const MAX_NESTING_DEPTH = 512;

/**
 * Elements that survive, each with the attributes it may keep. Anything not
 * listed is removed. No attribute is allowed globally: `id`/`name` enable DOM
 * clobbering, `style` enables CSS-based attacks and `on*` runs script.
 */
export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  // Text blocks and headings.
  p: [],
  br: [],
  hr: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  blockquote: ['cite'],
  pre: ['class'],
  // Inline semantics.
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  s: [],
  del: [],
  ins: [],
  mark: [],
  small: [],
  sub: [],
  sup: [],
  q: ['cite'],
  code: ['class'],
  kbd: [],
  samp: [],
  abbr: ['title'],
  cite: [],
  time: ['datetime'],
  span: [],
  // Lists.
  ul: [],
  ol: ['start', 'reversed', 'type'],
  li: [],
  dl: [],
  dt: [],
  dd: [],
  // Links and images.
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
  figure: [],
  figcaption: [],
  // Tables.
  table: [],
  caption: [],
  colgroup: ['span'],
  col: ['span'],
  thead: [],
  tbody: [],
  tfoot: [],
  tr: [],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  // Neutral containers that editors commonly produce.
  div: [],
  section: [],
  article: [],
  aside: [],
  header: [],
  footer: [],
};

/**
 * Disallowed elements whose text must vanish with them: raw-text elements (script, style, ...),
 * foreign content (svg, math) and embedded or inert content that would otherwise leak source
 * code or fallback markup as visible text. Other disallowed elements are unwrapped and keep
 * their text.
 */
export const CONTENT_DROPPED_TAGS: ReadonlySet<string> = new Set([
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

/**
 * Attributes whose value is a URL and therefore goes through the scheme check (of the allowed
 * ones: href, src and cite). The wider list keeps the check in place should one be allowed.
 */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'src',
  'cite',
  'action',
  'formaction',
  'data',
  'xlink:href',
  'poster',
  'background',
  'ping',
  'longdesc',
  'usemap',
  'codebase',
  'classid',
  'archive',
  'profile',
  'manifest',
  'itemid',
  'dynsrc',
  'lowsrc',
]);

/**
 * Allowed attributes kept when their value is empty: `alt=""` marks a decorative image and is
 * written so; `reversed` is boolean and written bare. Any other empty attribute is removed.
 */
export const KEPT_WHEN_EMPTY: ReadonlySet<string> = new Set(['alt', 'reversed']);

/** Schemes for URL attributes; relative URLs are always allowed. */
export const LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'];
const WEB_SCHEMES = ['http', 'https'];
export const SCHEMES_BY_TAG: Readonly<Record<string, string[]>> = {
  img: WEB_SCHEMES,
  blockquote: WEB_SCHEMES,
  q: WEB_SCHEMES,
};

/**
 * Characters some browsers have ignored inside a scheme (Unicode spaces, line
 * and paragraph separators, zero-width and bidi marks). The filter's second
 * scheme check ignores only ASCII controls, spaces and embedded comments.
 */
export const URL_INVISIBLES = /[\s\p{Cc}\p{Cf}]/gu;
export const SCHEME = /^([a-z][a-z0-9+.-]*):/;

/** Syntax-highlighting classes (Prism/highlight.js convention) on code/pre. */
export const LANGUAGE_CLASS = /^language-[A-Za-z0-9_+#-]{1,32}$/;
