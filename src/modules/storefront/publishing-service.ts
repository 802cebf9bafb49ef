// What the service publishes for feed readers and crawlers besides the pages: a store's feeds
// and sitemaps, and the service's robots.txt. Everything is built from the database at request
// time with the injected clock, so a scheduled post appears the moment it is due and an edit
// or an unpublish shows on the next request on any process.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { imagePublicRef } from '../media/index.js';
import { storefrontBase } from '../stores/index.js';
import { FEED_SIZE, FEED_TYPES, renderFeed, type FeedFormat } from './feeds.js';
import { listFeedPosts, publicStoreHandles, sitemapCategories, sitemapPosts } from './publishing-repository.js';
import { renderRobots, renderSitemapIndex, renderUrlset, SITEMAP_MAX_URLS, type SitemapUrl } from './sitemaps.js';
import { findStoreByHandle } from './storefront-repository.js';

export interface PublishedDocument {
  body: string;
  contentType: string;
  /** Newest change among what the document lists (its Last-Modified). */
  lastModified: number;
}

/** robots.txt names at most this many stores' sitemaps (crawlers read the first 500 KiB). */
const ROBOTS_MAX_STORES = 5000;
const PART = /^[1-9][0-9]{0,5}$/;

export class PublishingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
    /** URLs per sitemap file; above it the sitemap is an index of parts (lower only in tests). */
    public sitemapMaxUrls = SITEMAP_MAX_URLS,
  ) {}

  /** The store's feed in `format`, or null for an unknown or uncertified store. */
  async feed(handle: string, format: FeedFormat): Promise<PublishedDocument | null> {
    const found = await findStoreByHandle(this.db, handle);
    if (!found) return null;
    const { store } = found;
    const posts = await listFeedPosts(this.db, store.id, this.clock.now().getTime(), FEED_SIZE);
    const lastModified = Math.max(
      found.updatedAt,
      ...posts.map((p) => Math.max(p.updatedAt, p.publishedAt, ...p.categories.map((c) => c.updatedAt))),
    );
    const body = renderFeed(format, {
      storeName: store.name,
      base: storefrontBase(store, this.publicBaseUrl),
      serviceBase: this.serviceBase(handle),
      posts,
      updated: lastModified,
      coverUrl: (basename) => imagePublicRef(store.handle, basename, this.publicBaseUrl).url,
    });
    return { body, contentType: `${FEED_TYPES[format]}; charset=utf-8`, lastModified };
  }

  /**
   * `/s/<handle>/sitemap.xml` (part undefined) or one part of a sitemap index
   * (`sitemap-<n>.xml`); null for an unknown store, a part that does not exist, or any part when
   * the store's URLs fit in one file.
   */
  async sitemap(handle: string, part?: string): Promise<PublishedDocument | null> {
    if (part !== undefined && !PART.test(part)) return null;
    const found = await findStoreByHandle(this.db, handle);
    if (!found) return null;
    const { store } = found;
    const now = this.clock.now().getTime();
    const base = storefrontBase(store, this.publicBaseUrl);
    const [categories, posts] = await Promise.all([
      sitemapCategories(this.db, store.id, now),
      sitemapPosts(this.db, store.id, now),
    ]);
    const urls: SitemapUrl[] = [
      {
        loc: `${base}/blog`,
        lastModified: posts.reduce((m, p) => Math.max(m, p.lastModified), found.updatedAt),
      },
      ...categories.map((c) => ({ loc: `${base}/blog/categories/${c.id}`, lastModified: c.lastModified })),
      ...posts.map((p) => ({ loc: `${base}/blog/posts/${p.id}`, lastModified: p.lastModified })),
    ];
    const newest = (list: SitemapUrl[]) => list.reduce((m, u) => Math.max(m, u.lastModified), 0);
    const max = this.sitemapMaxUrls;
    const xml = 'application/xml; charset=utf-8';
    if (urls.length <= max)
      return part === undefined ? { body: renderUrlset(urls), contentType: xml, lastModified: newest(urls) } : null;
    const parts: SitemapUrl[][] = [];
    for (let i = 0; i < urls.length; i += max) parts.push(urls.slice(i, i + max));
    if (part === undefined) {
      const index = parts.map((p, i) => ({
        loc: `${this.serviceBase(handle)}/sitemap-${i + 1}.xml`,
        lastModified: newest(p),
      }));
      return { body: renderSitemapIndex(index), contentType: xml, lastModified: newest(urls) };
    }
    const chosen = parts[Number(part) - 1];
    return chosen ? { body: renderUrlset(chosen), contentType: xml, lastModified: newest(chosen) } : null;
  }

  async robots(): Promise<string> {
    return renderRobots(this.publicBaseUrl, await publicStoreHandles(this.db, ROBOTS_MAX_STORES));
  }

  private serviceBase(handle: string): string {
    return `${this.publicBaseUrl}/s/${handle}`;
  }
}
