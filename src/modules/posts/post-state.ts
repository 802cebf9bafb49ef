// Post states (docs/api-behaviour.md, "Posts"). Status is never stored: it is derived from
// the publish time, so a scheduled post becomes published the moment its time passes, with no
// job to run and nothing to miss. Unpublish clears the publish time.

export type PostStatus = 'draft' | 'scheduled' | 'published';

export function deriveStatus(publishedAt: number | null, now: number): PostStatus {
  if (publishedAt === null) return 'draft';
  return publishedAt <= now ? 'published' : 'scheduled';
}

export interface PublishDecision {
  publishedAt: number;
  /** False when the call changes nothing (an already-published post, publish without a time). */
  changed: boolean;
  action: 'post.published' | 'post.scheduled';
}

/**
 * publish: omitted time → now (or, for a post already published, its time unchanged); a past
 * time → back-dated publication; a future time → scheduled (also from published or scheduled).
 */
export function decidePublish(current: number | null, requested: number | null, now: number): PublishDecision {
  if (requested === null) {
    if (current !== null && current <= now) return { publishedAt: current, changed: false, action: 'post.published' };
    return { publishedAt: now, changed: true, action: 'post.published' };
  }
  return {
    publishedAt: requested,
    changed: requested !== current,
    action: requested > now ? 'post.scheduled' : 'post.published',
  };
}
