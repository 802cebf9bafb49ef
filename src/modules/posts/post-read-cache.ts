// Posts and list pages as presented, cached between reads while nothing they depend on changes.
import { Cache } from '../../cache/index.js';
import type { Store } from '../stores/index.js';
import type { PostListItem, PostView } from './post-schemas.js';

export interface PostPage {
  data: PostListItem[];
  meta: { next_cursor: string | null; limit: number };
}

/**
 * Rough sizes as cached, JSON included (see sendCached): a listed post's object and short strings
 * twice over; a post's body three times its length (the view's string and its JSON, one byte a
 * character for ASCII text and two for most other text).
 */
const LIST_ITEM_BYTES = 1200;
const POST_OVERHEAD_BYTES = 1500;
const BODY_BYTES_PER_CHARACTER = 3;

/**
 * Integrations poll the same posts and pages over and over; reading and presenting them was
 * most of a read's cost. A presented value depends on the rows (the `content` version), the
 * clock (a scheduled post turns published at its time, so a value is cached only until the
 * earliest future publish time it shows) and the store's presentation settings (in the key, so
 * a value presented with settings read before a change is never served after it).
 */
export class PostReadCache {
  private readonly cache: Cache<string, PostView | PostPage>;

  /** Page reads under way, by version and key (see whilePageRead). */
  private readonly pageReads = new Map<string, Promise<unknown>>();

  constructor(maxBytes: number) {
    this.cache = new Cache(maxBytes);
  }

  /**
   * A read of this page under this version already under way, as a promise that settles (never
   * rejects) when it is done; undefined when none is. Clients following cursors together ask for
   * each page nobody has read yet at about the same moment: the followers wait for the first
   * read and then look in the cache again, instead of each reading the page from the database.
   */
  pageReadUnderWay(version: number | null, store: Store, query: string): Promise<unknown> | undefined {
    return version === null ? undefined : this.pageReads.get(`${version}|${pageKey(store, query)}`);
  }

  /** Records `read` as the read of this page under this version until it settles. */
  whilePageRead<T>(version: number | null, store: Store, query: string, read: Promise<T>): Promise<T> {
    if (version === null) return read;
    const key = `${version}|${pageKey(store, query)}`;
    const settled = read.then(
      () => undefined,
      () => undefined,
    );
    this.pageReads.set(key, settled);
    void settled.then(() => {
      if (this.pageReads.get(key) === settled) this.pageReads.delete(key);
    });
    return read;
  }

  getPost(version: number | null, store: Store, id: number, now: number): PostView | undefined {
    return this.cache.get(postKey(store, id), version, now) as PostView | undefined;
  }

  setPost(
    version: number | null,
    store: Store,
    id: number,
    view: PostView,
    publishedAt: number | null,
    now: number,
  ): void {
    const until = publishedAt !== null && publishedAt > now ? publishedAt : undefined;
    this.cache.set(postKey(store, id), Object.freeze(view), {
      version,
      now,
      until,
      size: POST_OVERHEAD_BYTES + view.body_html.length * BODY_BYTES_PER_CHARACTER,
    });
  }

  getPage(version: number | null, store: Store, query: string, now: number): PostPage | undefined {
    return this.cache.get(pageKey(store, query), version, now) as PostPage | undefined;
  }

  /** `publishTimes`: the publish times of the listed posts (the page changes when one passes). */
  setPage(
    version: number | null,
    store: Store,
    query: string,
    page: PostPage,
    publishTimes: Array<number | null>,
    now: number,
  ): void {
    let until = Infinity;
    for (const at of publishTimes) if (at !== null && at > now && at < until) until = at;
    Object.freeze(page.data);
    this.cache.set(pageKey(store, query), Object.freeze(page), {
      version,
      now,
      until,
      size: POST_OVERHEAD_BYTES + page.data.length * LIST_ITEM_BYTES,
    });
  }
}

/** The store settings a presented post shows (time zone, its URLs). */
const storeKey = (store: Store) => `${store.id}|${store.handle}|${store.utcOffset}|${store.storefrontBaseUrl ?? ''}`;
const postKey = (store: Store, id: number) => `post|${storeKey(store)}|${id}`;
const pageKey = (store: Store, query: string) => `page|${storeKey(store)}|${query}`;
