// The blog's feeds: Atom 1.0 (RFC 4287), RSS 2.0 and JSON Feed 1.1, each of the newest published
// posts with their full filtered HTML. Every address in them is absolute, under the store front
// base (the canonical address of the pages), so a reader resolves nothing against the feed's URL;
// a feed's own (self) address is where the service serves it.
import type { FeedPost } from './publishing-repository.js';

export const FEED_SIZE = 20;

export const FEED_TYPES = {
  atom: 'application/atom+xml',
  rss: 'application/rss+xml',
  json: 'application/feed+json',
} as const;
export type FeedFormat = keyof typeof FEED_TYPES;

/** Where each feed lives under the store front base. */
export const FEED_PATHS: Record<FeedFormat, string> = {
  atom: '/blog/feed.xml',
  rss: '/blog/rss.xml',
  json: '/blog/feed.json',
};

export interface FeedInput {
  storeName: string;
  /** The store front base: `<PUBLIC_BASE_URL>/s/<handle>` or the store's own (the pages' canonical addresses). */
  base: string;
  /** Where the service serves the feeds themselves: `<PUBLIC_BASE_URL>/s/<handle>`. */
  serviceBase: string;
  posts: FeedPost[];
  /** Newest change among the posts and the store (the feed's `updated`). */
  updated: number;
  coverUrl: (basename: string) => string;
}

// Characters XML 1.0 does not allow at all; stored text should never hold them, but one would
// make the whole feed unreadable, so they are dropped rather than escaped.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML element content and quoted attributes alike. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

const postUrl = (base: string, id: number) => `${base}/blog/posts/${id}`;
const categoryUrl = (base: string, id: number) => `${base}/blog/categories/${id}`;
const iso = (ms: number) => new Date(ms).toISOString();

export function renderFeed(format: FeedFormat, input: FeedInput): string {
  if (format === 'atom') return renderAtom(input);
  if (format === 'rss') return renderRss(input);
  return renderJsonFeed(input);
}

function renderAtom({ storeName, base, serviceBase, posts, updated }: FeedInput): string {
  const entries = posts.map(
    (p) => `<entry>
<id>${escapeXml(postUrl(base, p.id))}</id>
<title type="text">${escapeXml(p.title)}</title>
<link rel="alternate" type="text/html" href="${escapeXml(postUrl(base, p.id))}"/>
<published>${iso(p.publishedAt)}</published>
<updated>${iso(Math.max(p.updatedAt, p.publishedAt))}</updated>
${p.categories.map((c) => `<category term="${c.id}" label="${escapeXml(c.name)}" scheme="${escapeXml(`${base}/blog/categories/`)}"/>\n`).join('')}${
      p.summary ? `<summary type="text">${escapeXml(p.summary)}</summary>\n` : ''
    }<content type="html">${escapeXml(p.bodyHtml)}</content>
</entry>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="zh-Hant-TW">
<id>${escapeXml(`${base}/blog`)}</id>
<title type="text">${escapeXml(storeName)}</title>
<updated>${iso(updated)}</updated>
<author><name>${escapeXml(storeName)}</name></author>
<link rel="self" type="${FEED_TYPES.atom}" href="${escapeXml(serviceBase + FEED_PATHS.atom)}"/>
<link rel="alternate" type="text/html" href="${escapeXml(`${base}/blog`)}"/>
${entries.join('')}</feed>
`;
}

function renderRss({ storeName, base, serviceBase, posts, updated }: FeedInput): string {
  const items = posts.map(
    (p) => `<item>
<title>${escapeXml(p.title)}</title>
<link>${escapeXml(postUrl(base, p.id))}</link>
<guid isPermaLink="true">${escapeXml(postUrl(base, p.id))}</guid>
<pubDate>${new Date(p.publishedAt).toUTCString()}</pubDate>
${p.categories.map((c) => `<category domain="${escapeXml(categoryUrl(base, c.id))}">${escapeXml(c.name)}</category>\n`).join('')}<description>${escapeXml(p.bodyHtml)}</description>
</item>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${escapeXml(storeName)}</title>
<link>${escapeXml(`${base}/blog`)}</link>
<description>${escapeXml(`${storeName} 的部落格`)}</description>
<language>zh-Hant-TW</language>
<lastBuildDate>${new Date(updated).toUTCString()}</lastBuildDate>
<atom:link rel="self" type="${FEED_TYPES.rss}" href="${escapeXml(serviceBase + FEED_PATHS.rss)}"/>
${items.join('')}</channel>
</rss>
`;
}

function renderJsonFeed({ storeName, base, serviceBase, posts, coverUrl }: FeedInput): string {
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: storeName,
    home_page_url: `${base}/blog`,
    feed_url: serviceBase + FEED_PATHS.json,
    description: `${storeName} 的部落格`,
    language: 'zh-Hant-TW',
    authors: [{ name: storeName }],
    items: posts.map((p) => ({
      id: postUrl(base, p.id),
      url: postUrl(base, p.id),
      title: p.title,
      content_html: p.bodyHtml,
      ...(p.summary ? { summary: p.summary } : {}),
      ...(p.coverBasename ? { image: coverUrl(p.coverBasename) } : {}),
      date_published: iso(p.publishedAt),
      date_modified: iso(Math.max(p.updatedAt, p.publishedAt)),
      ...(p.categories.length ? { tags: p.categories.map((c) => c.name) } : {}),
    })),
  };
  return `${JSON.stringify(feed, null, 1)}\n`;
}
