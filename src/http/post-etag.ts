// ETags of /v1 posts and the If-Match precondition (docs/api-behaviour.md, "Conditional
// requests"). The ETag is the hash of the post as a GET shows it, with its keys in a fixed order
// and without view_count: it changes with every edit, publish or unpublish, when a scheduled
// post's time arrives and when the store's settings change what is shown (time zone, handle),
// but not with every store-front view, so a reader's view never makes an editor's write fail.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PostPrecondition, PostView } from '../modules/posts/index.js';
import { etagOf, ifMatchHolds } from './http-validators.js';
import { canonicalJson } from '../lib/canonical-json.js';

// Cached posts are frozen and shared: their ETag is worked out once, like their JSON.
const cachedEtags = new WeakMap<object, string>();

export function postEtag(post: PostView): string {
  let etag = cachedEtags.get(post);
  if (etag === undefined) {
    const { view_count: _, ...shown } = post;
    etag = etagOf(canonicalJson(shown));
    if (Object.isFrozen(post)) cachedEtags.set(post, etag);
  }
  return etag;
}

/** The request's If-Match as a condition on the post, or undefined when none was sent. */
export function ifMatchOf(request: FastifyRequest): PostPrecondition | undefined {
  const ifMatch = request.headers['if-match'];
  if (ifMatch === undefined) return undefined;
  return (current) => ifMatchHolds(ifMatch, postEtag(current));
}

/** Sets the post's ETag on the reply and returns the post, for the route to answer with. */
export function withEtag(reply: FastifyReply, post: PostView): PostView {
  reply.header('ETag', postEtag(post));
  return post;
}

/** For a replayed creation (its stored JSON): the ETag of the post it carries. */
export function etagOfStoredPost(payload: string): string {
  return postEtag(JSON.parse(payload) as PostView);
}
