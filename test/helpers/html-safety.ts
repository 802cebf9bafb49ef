// What makes filtered HTML safe, checked independently of the filter: the output is parsed again
// with parse5 (a standards-compliant parser, as browsers parse) and every element and attribute
// must be on the allow-list of docs/html-filter.md, with safe URLs. Used by the filter's tests and by the
// filter comparison in the benchmark (`npm run bench -- --filters`).
import { html as parse5Html, parseFragment, type DefaultTreeAdapterTypes } from 'parse5';

type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type Element = DefaultTreeAdapterTypes.Element;

// The allow-list (docs/html-filter.md), written out independently of the implementation so that a
// widened allow-list in the filter makes these tests fail.
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  p: [],
  br: [],
  hr: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
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
  blockquote: ['cite'],
  q: ['cite'],
  code: ['class'],
  pre: ['class'],
  kbd: [],
  samp: [],
  ul: [],
  ol: ['start', 'reversed', 'type'],
  li: [],
  dl: [],
  dt: [],
  dd: [],
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
  figure: [],
  figcaption: [],
  table: [],
  thead: [],
  tbody: [],
  tfoot: [],
  tr: [],
  caption: [],
  colgroup: ['span'],
  col: ['span'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  span: [],
  div: [],
  abbr: ['title'],
  cite: [],
  time: ['datetime'],
  section: [],
  article: [],
  aside: [],
  header: [],
  footer: [],
};

const FORBIDDEN = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'form',
  'base',
  'meta',
  'link',
  'input',
  'textarea',
  'button',
  'frame',
  'frameset',
  'noscript',
  'template',
]);

const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'cite',
  'action',
  'formaction',
  'xlink:href',
  'poster',
  'background',
  'srcset',
]);

const LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'];
const WEB_SCHEMES = ['http', 'https'];

export const WARNING_FORMATS = [
  /^removed element <\S+>$/,
  /^removed element <\S+> \(content kept\)$/,
  /^removed attribute \S+ from <\S+>$/,
  /^removed empty attribute \S+ from <\S+>$/,
  /^removed unsafe URL from \S+ of <\S+>$/,
  /^removed disallowed value of \S+ from <\S+>$/,
];

function* elementsOf(node: ParentNode): Generator<Element> {
  for (const child of node.childNodes) {
    if (!('tagName' in child)) continue;
    yield child;
    yield* elementsOf(child);
    if ('content' in child) yield* elementsOf(child.content);
  }
}

/** Scheme of a URL as a browser would see it, or null for a relative URL. */
function schemeOf(url: string): string | null {
  // Strip whitespace and control characters anywhere: stricter than browsers,
  // which only ignore tab/newline inside and C0/space around the URL.
  const normalised = url.replace(/[\s\u0000-\u001f\u007f-\u009f]/g, '').toLowerCase();
  const match = /^([a-z][a-z0-9+.-]*):/.exec(normalised);
  return match ? match[1] : null;
}

function allowedSchemes(tag: string, attr: string): readonly string[] {
  return tag === 'a' && attr === 'href' ? LINK_SCHEMES : WEB_SCHEMES;
}

function urlsIn(attr: string, value: string): string[] {
  if (attr !== 'srcset') return [value];
  return value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '');
}

/** Safety violations of the filtered html, re-parsed with a standards-compliant parser. */
export function violations(html: string): string[] {
  const found: string[] = [];
  for (const el of elementsOf(parseFragment(html))) {
    const tag = el.tagName;
    if (el.namespaceURI !== parse5Html.NS.HTML) found.push(`<${tag}> in namespace ${el.namespaceURI}`);
    if (FORBIDDEN.has(tag)) found.push(`forbidden element <${tag}>`);
    if (!Object.hasOwn(ALLOWED, tag)) found.push(`element <${tag}> not allow-listed`);
    for (const attr of el.attrs) {
      const name = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
      if (/^on/i.test(name)) found.push(`event attribute ${name} on <${tag}>`);
      if (!(ALLOWED[tag] ?? []).includes(name)) found.push(`attribute ${name} not allow-listed on <${tag}>`);
      if (URL_ATTRIBUTES.has(name)) {
        for (const url of urlsIn(name, attr.value)) {
          const scheme = schemeOf(url);
          if (scheme !== null && !allowedSchemes(tag, name).includes(scheme)) {
            found.push(`scheme ${scheme}: in ${name} of <${tag}>`);
          }
        }
      }
      if (
        name === 'class' &&
        !attr.value
          .split(/\s+/)
          .filter(Boolean)
          .every((c) => c.startsWith('language-'))
      ) {
        found.push(`class "${attr.value}" on <${tag}>`);
      }
      if (name === 'target') {
        const rel = (el.attrs.find((a) => a.name === 'rel')?.value ?? '').toLowerCase().split(/\s+/);
        if (attr.value !== '_blank') found.push(`target "${attr.value}" on <${tag}>`);
        if (!rel.includes('noopener') || !rel.includes('noreferrer'))
          found.push(`target without noopener noreferrer on <${tag}>`);
      }
    }
  }
  return found;
}
