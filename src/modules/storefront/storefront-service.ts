// The store front pages the service serves itself at <PUBLIC_BASE_URL>/s/<handle>/blog...
// Whether a post shows is decided with the injected clock at request time, so a scheduled
// post appears the moment its time passes and an unpublished one disappears at once.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { imagePublicRef } from '../media/index.js';
import { storefrontBase } from '../stores/index.js';
import { renderIndexPage, renderPostPage, type PageStore } from './storefront-pages.js';
import { responsiveBody } from './responsive-image.js';
import {
  categoriesOf,
  findAnyPost,
  findStoreByHandle,
  findVisiblePost,
  listVisiblePosts,
  type PreviewPost,
  type StorefrontStore,
  type VisiblePost,
} from './storefront-repository.js';
import type { PreviewLinks } from './preview-links.js';
import { findCategory, isVisiblePost } from './publishing-repository.js';
import { isRobot, VIEW_BEACON_SCRIPT_PATH, VIEW_BEACON_VERSION, ViewGate } from './view-beacon.js';
import { ViewCounter } from './view-counter.js';

export const INDEX_PAGE_SIZE = 20;

const POST_ID = /^[1-9][0-9]{0,14}$/;
/** Index position: `<published_at epoch ms>.<id>` of the last post on the previous page. */
const INDEX_CURSOR = /^([0-9]{1,15})\.([1-9][0-9]{0,14})$/;

export interface RenderedPostPage {
  postId: number;
  html: string;
  /** Newest update time among everything the page shows. */
  lastModified: number;
}

export interface RenderedIndexPage {
  html: string;
  /** Newest update or publish time among the posts listed, the store and the category shown. */
  lastModified: number;
}

/** What a view beacon did: counted, not counted (robot, repeat), or null for no such post. */
export type BeaconResult = 'counted' | 'ignored' | null;

export class StorefrontService {
  readonly views: ViewCounter;
  readonly viewGate = new ViewGate();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
    /** Checks preview links; without it every preview address is a 404. */
    private readonly previews?: PreviewLinks,
  ) {
    this.views = new ViewCounter(db);
  }

  /** The page of a published post of this store, or null for anything a shopper must not see. */
  async postPage(handle: string, idText: string): Promise<RenderedPostPage | null> {
    if (!POST_ID.test(idText)) return null;
    const found = await findStoreByHandle(this.db, handle);
    if (!found) return null;
    const { store } = found;
    const post = await findVisiblePost(this.db, store.id, Number(idText), this.clock.now().getTime());
    if (!post) return null;
    const page = await this.renderPost(found, post);
    return { ...page, lastModified: Math.max(page.lastModified, post.publishedAt) };
  }

  /**
   * The page a preview link opens: the post of this store whatever its status, with its current
   * content; null when the link is malformed, forged, another store's or expired, or the post
   * is gone. Never counts a view.
   */
  async previewPage(handle: string, token: string): Promise<RenderedPostPage | null> {
    if (!this.previews) return null;
    const found = await findStoreByHandle(this.db, handle);
    if (!found) return null;
    const { store } = found;
    const postId = this.previews.postIdOf(store.id, token);
    if (postId === null) return null;
    const post = await findAnyPost(this.db, store.id, postId);
    if (!post) return null;
    return this.renderPost(found, post, { now: this.clock.now().getTime() });
  }

  /** A post's page (a preview when `preview` is given); lastModified from the post, the store and its categories. */
  private async renderPost(
    found: StorefrontStore,
    post: VisiblePost | PreviewPost,
    preview?: { now: number },
  ): Promise<RenderedPostPage> {
    const { store } = found;
    const categories = await categoriesOf(this.db, store.id, post.id);
    // The main category leads; the rest keep id order.
    categories.sort((a, b) => Number(b.id === post.defaultCategoryId) - Number(a.id === post.defaultCategoryId));
    const html = renderPostPage({
      store: this.pageStore(found),
      post: { ...post, bodyHtml: await this.responsiveBody(found, post) },
      categories,
      coverUrl: post.cover ? imagePublicRef(store.handle, post.cover.basename, this.publicBaseUrl).url : null,
      canonicalUrl: `${storefrontBase(store, this.publicBaseUrl)}/blog/posts/${post.id}`,
      ...(preview ? { preview } : {}),
    });
    return {
      postId: post.id,
      html,
      lastModified: Math.max(post.updatedAt, found.updatedAt, ...categories.map((c) => c.updatedAt)),
    };
  }

  /** The body with responsive images (responsive-image.ts); its first image is lazy when a cover comes before it. */
  private responsiveBody({ store }: StorefrontStore, post: VisiblePost | PreviewPost): Promise<string> {
    const own = imagePublicRef(store.handle, '', this.publicBaseUrl);
    return responsiveBody(this.db, store.id, [own.url, own.path], post.bodyHtml, post.cover !== null);
  }

  /** A page of the store's published posts, newest publish time first; null for an unknown store or a malformed position. */
  async indexPage(handle: string, before: string | undefined): Promise<RenderedIndexPage | null> {
    return this.listPage(handle, before);
  }

  /** A page of one category's published posts, paged like the index; null for a category not of this store. */
  async categoryPage(handle: string, idText: string, before: string | undefined): Promise<RenderedIndexPage | null> {
    if (!POST_ID.test(idText)) return null;
    return this.listPage(handle, before, Number(idText));
  }

  private async listPage(handle: string, before: string | undefined, categoryId?: number) {
    let position: { publishedAt: number; id: number } | undefined;
    if (before !== undefined) {
      const m = INDEX_CURSOR.exec(before);
      if (!m) return null;
      position = { publishedAt: Number(m[1]), id: Number(m[2]) };
    }
    const found = await findStoreByHandle(this.db, handle);
    if (!found) return null;
    const category = categoryId === undefined ? undefined : await findCategory(this.db, found.store.id, categoryId);
    if (category === null) return null;
    const rows = await listVisiblePosts(
      this.db,
      found.store.id,
      this.clock.now().getTime(),
      INDEX_PAGE_SIZE + 1,
      position,
      categoryId,
    );
    const posts = rows.slice(0, INDEX_PAGE_SIZE);
    const last = posts[posts.length - 1];
    const olderCursor = rows.length > INDEX_PAGE_SIZE && last ? `${last.publishedAt}.${last.id}` : null;
    const html = renderIndexPage({
      store: this.pageStore(found),
      posts,
      olderCursor,
      isFirstPage: !position,
      ...(category ? { category } : {}),
    });
    const lastModified = Math.max(
      found.updatedAt,
      category?.updatedAt ?? 0,
      ...posts.map((p) => Math.max(p.publishedAt, p.updatedAt)),
    );
    return { html, lastModified };
  }

  /**
   * A view beacon from a post page: counts one view of a published post of this store unless
   * the client names itself a robot or already counted one for this post just now (ViewGate).
   */
  async beacon(handle: string, idText: string, client: string, userAgent: string | undefined): Promise<BeaconResult> {
    if (!POST_ID.test(idText)) return null;
    const found = await findStoreByHandle(this.db, handle);
    if (!found) return null;
    const now = this.clock.now().getTime();
    const postId = Number(idText);
    if (!(await isVisiblePost(this.db, found.store.id, postId, now))) return null;
    if (isRobot(userAgent) || !this.viewGate.admit(client, postId, now)) return 'ignored';
    this.views.record(postId);
    return 'counted';
  }

  close(): Promise<void> {
    return this.views.close();
  }

  private pageStore({ store }: StorefrontStore): PageStore {
    return {
      name: store.name,
      utcOffset: store.utcOffset,
      serviceBase: `${this.publicBaseUrl}/s/${store.handle}`,
      beaconScriptUrl: `${this.publicBaseUrl}${VIEW_BEACON_SCRIPT_PATH}?v=${VIEW_BEACON_VERSION}`,
    };
  }
}
