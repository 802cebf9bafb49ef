// Sitemaps (sitemaps.org 0.9) and robots.txt. A store's sitemap lists the blog index, every
// category page and every published post; above the protocol's limit of URLs per file it
// becomes a sitemap index of numbered parts, each within the limit.
import { escapeXml } from './feeds.js';

/** The sitemaps.org limit of URLs in one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface SitemapUrl {
  loc: string;
  lastModified: number;
}

const lastmod = (ms: number) => new Date(ms).toISOString();

export function renderUrlset(urls: SitemapUrl[]): string {
  const body = urls
    .map((u) => `<url><loc>${escapeXml(u.loc)}</loc><lastmod>${lastmod(u.lastModified)}</lastmod></url>\n`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${body}</urlset>\n`;
}

export function renderSitemapIndex(parts: SitemapUrl[]): string {
  const body = parts
    .map((u) => `<sitemap><loc>${escapeXml(u.loc)}</loc><lastmod>${lastmod(u.lastModified)}</lastmod></sitemap>\n`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<sitemapindex xmlns="${SITEMAP_NS}">\n${body}</sitemapindex>\n`;
}

/**
 * robots.txt for the service's root: everything may be crawled except preview pages (their
 * links are shared with people, not meant for indexes) and the API; one Sitemap line per store.
 * `basePath` is the path of PUBLIC_BASE_URL (empty at a host's root).
 */
export function renderRobots(publicBaseUrl: string, handles: string[]): string {
  const basePath = new URL(publicBaseUrl).pathname.replace(/\/+$/, '');
  const lines = [
    'User-agent: *',
    `Disallow: ${basePath}/s/*/blog/preview/`,
    `Disallow: ${basePath}/v1/`,
    '',
    ...handles.map((h) => `Sitemap: ${publicBaseUrl}/s/${h}/sitemap.xml`),
  ];
  return `${lines.join('\n')}\n`;
}
