// What a shared link or a crawler reads from a post page's <head>: OpenGraph, the Twitter card
// and one schema.org BlogPosting in JSON-LD, plus the feed links every public page carries.
// Attribute values go through the template's escaping; the JSON-LD is JSON with every character
// that could end or confuse the <script> element written as a \u escape instead.
import { formatWithOffset } from '../../lib/time.js';
import { FEED_PATHS, FEED_TYPES, type FeedFormat } from './feeds.js';
import { html, trustedHtml, type SafeHtml } from './html-template.js';

const FEED_TITLES: Record<FeedFormat, string> = { atom: 'Atom', rss: 'RSS', json: 'JSON Feed' };

/** `<link rel="alternate">` to the three feeds, served under `serviceBase`. */
export function feedLinks(serviceBase: string, storeName: string): SafeHtml {
  return html`${(Object.keys(FEED_PATHS) as FeedFormat[]).map(
    (f) =>
      html`<link rel="alternate" type="${FEED_TYPES[f]}" title="${storeName} (${FEED_TITLES[f]})" href="${serviceBase}${FEED_PATHS[f]}">\n`,
  )}`;
}

/** JSON safe inside a <script> element: no `<`, `>`, `&` or line separators appear literally. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export interface RichPreviewInput {
  storeName: string;
  utcOffset: string;
  title: string;
  summary: string | null;
  canonicalUrl: string;
  coverUrl: string | null;
  publishedAt: number;
  modifiedAt: number;
}

export function richPreview(p: RichPreviewInput): SafeHtml {
  const published = formatWithOffset(p.publishedAt, p.utcOffset);
  const modified = formatWithOffset(Math.max(p.modifiedAt, p.publishedAt), p.utcOffset);
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: p.title,
    ...(p.summary ? { description: p.summary } : {}),
    ...(p.coverUrl ? { image: [p.coverUrl] } : {}),
    datePublished: published,
    dateModified: modified,
    url: p.canonicalUrl,
    mainEntityOfPage: { '@type': 'WebPage', '@id': p.canonicalUrl },
    author: { '@type': 'Organization', name: p.storeName },
    publisher: { '@type': 'Organization', name: p.storeName },
  };
  const meta = (property: string, content: string) => html`<meta property="${property}" content="${content}">\n`;
  const named = (name: string, content: string) => html`<meta name="${name}" content="${content}">\n`;
  return html`${meta('og:type', 'article')}${meta('og:title', p.title)}${p.summary ? meta('og:description', p.summary) : ''}${meta('og:url', p.canonicalUrl)}${p.coverUrl ? meta('og:image', p.coverUrl) : ''}${meta('og:site_name', p.storeName)}${meta('og:locale', 'zh_TW')}${meta('article:published_time', published)}${meta('article:modified_time', modified)}${named('twitter:card', p.coverUrl ? 'summary_large_image' : 'summary')}${named('twitter:title', p.title)}${p.summary ? named('twitter:description', p.summary) : ''}${p.coverUrl ? named('twitter:image', p.coverUrl) : ''}<script type="application/ld+json">${trustedHtml(scriptSafeJson(ld))}</script>\n`;
}
