// Posts and list pages as presented, kept between reads while nothing they depend on changes.
import type { TableWatch } from '../../db/database.js';
import { WatchedCache } from '../../db/watched-cache.js';
import type { Store } from '../stores/index.js';
import type { PostListItem, PostView } from './post-schemas.js';

/** Every table a presented post or page is read from (writes to any of them drop the cache). */
export const POST_READ_TABLES = ['posts', 'post_categories', 'categories', 'images', 'stores'] as const;

export interface PostPage {
  data: PostListItem[];
  meta: { next_cursor: string | null; limit: number };
}

/**
 * Rough sizes as kept, JSON included (see sendKept): a listed post's object and short strings
 * twice over; a post's body three times its length (the view's string and its JSON, one byte a
 * character for ASCII text and two for most other text).
 */
const LIST_ITEM_BYTES = 1200;
const POST_OVERHEAD_BYTES = 1500;
const BODY_BYTES_PER_CHARACTER = 3;

/**
 * Integrations poll the same posts and pages over and over; reading and presenting them was
 * most of a read's cost. A presented value depends on the rows (watched), the clock (a
 * scheduled post turns published at its time, so a value is kept only until the earliest
 * future publish time it shows) and the store's presentation settings (in the key, so a value
 * presented with settings read before a change is never served after it).
 */
export class PostReadCache {
  private readonly cache: WatchedCache<PostView | PostPage>;

  constructor(watch: TableWatch, maxBytes: number) {
    this.cache = new WatchedCache(watch, maxBytes);
  }

  /** See WatchedCache.begin(): call right before a find and the read. */
  begin(): number | null {
    return this.cache.begin();
  }

  findPost(stamp: number | null, store: Store, id: number, now: number): PostView | undefined {
    return this.cache.find(stamp, postKey(store, id), now) as PostView | undefined;
  }

  keepPost(stamp: number | null, store: Store, id: number, view: PostView, publishedAt: number | null, now: number): void {
    const until = publishedAt !== null && publishedAt > now ? publishedAt : undefined;
    this.cache.keep(stamp, postKey(store, id), Object.freeze(view), { now, until, size: POST_OVERHEAD_BYTES + view.body_html.length * BODY_BYTES_PER_CHARACTER });
  }

  findPage(stamp: number | null, store: Store, query: string, now: number): PostPage | undefined {
    return this.cache.find(stamp, pageKey(store, query), now) as PostPage | undefined;
  }

  /** `publishTimes`: the publish times of the listed posts (the page changes when one passes). */
  keepPage(stamp: number | null, store: Store, query: string, page: PostPage, publishTimes: Array<number | null>, now: number): void {
    let until = Infinity;
    for (const at of publishTimes) if (at !== null && at > now && at < until) until = at;
    Object.freeze(page.data);
    this.cache.keep(stamp, pageKey(store, query), Object.freeze(page), { now, until, size: POST_OVERHEAD_BYTES + page.data.length * LIST_ITEM_BYTES });
  }
}

/** The store settings a presented post shows (time zone, its URLs). */
const storeKey = (store: Store) => `${store.id}|${store.handle}|${store.utcOffset}|${store.storefrontBaseUrl ?? ''}`;
const postKey = (store: Store, id: number) => `post|${storeKey(store)}|${id}`;
const pageKey = (store: Store, query: string) => `page|${storeKey(store)}|${query}`;
