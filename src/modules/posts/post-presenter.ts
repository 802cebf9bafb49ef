// Domain record → contract field names, in one place.
import { formatNullable, formatWithOffset } from '../../lib/time.js';
import { storefrontBase, type Store } from '../stores/index.js';
import { imagePublicRef } from '../media/index.js';
import { deriveStatus } from './post-state.js';
import type { PostRecord } from './post-repository.js';
import type { PostListItem, PostView } from './post-schemas.js';

export interface PresentContext {
  store: Store;
  now: number;
  publicBaseUrl: string;
}

export function presentListItem(post: PostRecord, c: PresentContext): PostListItem {
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
    public_url: status === 'published' ? `${storefrontBase(c.store, c.publicBaseUrl)}/blog/posts/${post.id}` : null,
    created_at: formatWithOffset(post.created_at, offset),
    updated_at: formatWithOffset(post.updated_at, offset),
  };
}

export function presentPost(post: PostRecord, c: PresentContext): PostView {
  return { ...presentListItem(post, c), body_html: post.body_html, warnings: JSON.parse(post.warnings) as string[] };
}
