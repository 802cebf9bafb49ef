// Domain record → the API's field names, in one place.
import { formatNullable, formatWithOffset } from '../../lib/time.js';
import { storefrontBase, type Store } from '../stores/index.js';
import { imagePublicRef } from '../media/index.js';
import { deriveStatus } from './post-state.js';
import type { PostListRecord, PostRecord } from './post-repository.js';
import type { PostListItem, PostView } from './post-schemas.js';

export interface PresentContext {
  store: Store;
  now: number;
  publicBaseUrl: string;
  /** The store's front-end base, worked out once per context (a page presents many posts). */
  storefrontBase?: string;
}

export function presentListItem(post: PostListRecord, c: PresentContext): PostListItem {
  const status = deriveStatus(post.published_at, c.now);
  const offset = c.store.utcOffset;
  return {
    id: post.id,
    title: post.title,
    summary: post.summary,
    cover_image: post.cover_basename ? imagePublicRef(c.store.handle, post.cover_basename, c.publicBaseUrl) : null,
    status,
    published_at: formatNullable(post.published_at, offset),
    category_ids: post.category_ids,
    default_category_id: post.default_category_id,
    view_count: post.view_count,
    public_url:
      status === 'published'
        ? `${(c.storefrontBase ??= storefrontBase(c.store, c.publicBaseUrl))}/blog/posts/${post.id}`
        : null,
    created_at: formatWithOffset(post.created_at, offset),
    updated_at: formatWithOffset(post.updated_at, offset),
  };
}

const NO_WARNINGS = '[]';

export function presentPost(post: PostRecord, c: PresentContext): PostView {
  // Almost every post has no warnings: skip parsing the stored '[]'.
  const warnings = post.warnings === NO_WARNINGS ? [] : (JSON.parse(post.warnings) as string[]);
  return { ...presentListItem(post, c), body_html: post.body_html, warnings };
}
