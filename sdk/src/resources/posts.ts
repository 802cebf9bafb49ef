import { BlogApiError } from '../errors.js';
import { PageIterator } from '../paging.js';
import type { RequestOptions } from '../transport.js';
import type { NewPost, Post, PostChanges, PostListItem, PostListQuery, PostPage, PreviewLink } from '../types.js';
import {
  id,
  ifMatchHeader,
  newIdempotencyKey,
  requestOptions,
  Resource,
  withEtag,
  type ConditionalOptions,
  type CreateOptions,
} from './resource.js';

export interface PublishOptions extends ConditionalOptions {
  /** Absent, null or past: published now; future: scheduled for then (RFC 3339 with an offset). */
  published_at?: string | null;
}

export interface PreviewLinkOptions extends RequestOptions {
  /** How long the link works: 60 to 604,800 seconds (default one day). */
  expires_in_seconds?: number;
}

export class PostsApi extends Resource {
  /**
   * Creates a draft. An Idempotency-Key is generated when none is given and reused on this
   * call's own retries, so a retry never creates a second post.
   */
  async create(input: NewPost, options: CreateOptions = {}): Promise<Post> {
    const key = options.idempotencyKey ?? newIdempotencyKey();
    return withEtag(
      await this.send({
        method: 'POST',
        path: '/v1/blog/posts',
        json: input,
        headers: { 'idempotency-key': key },
        options: requestOptions(options),
      }),
    );
  }

  async get(postId: number, options?: RequestOptions): Promise<Post> {
    return withEtag(
      await this.send({ method: 'GET', path: `/v1/blog/posts/${id(postId)}`, options: requestOptions(options) }),
    );
  }

  /** With `ifMatch`, refused (412 precondition_failed, nothing written) if the post changed since. */
  async update(postId: number, changes: PostChanges, options: ConditionalOptions = {}): Promise<Post> {
    return withEtag(
      await this.send({
        method: 'PATCH',
        path: `/v1/blog/posts/${id(postId)}`,
        json: changes,
        headers: ifMatchHeader(options.ifMatch),
        options: requestOptions(options),
      }),
    );
  }

  /** Every post matching `query`, newest first, fetching page after page as you iterate. */
  list(query: PostListQuery = {}, options?: RequestOptions): PageIterator<PostListItem> {
    return new PageIterator(query.cursor, (cursor) =>
      this.listPage({ ...query, ...(cursor === undefined ? {} : { cursor }) }, options),
    );
  }

  async listPage(query: PostListQuery = {}, options?: RequestOptions): Promise<PostPage> {
    return this.body({ method: 'GET', path: '/v1/blog/posts', query, options: requestOptions(options) });
  }

  /** Now (no published_at, null or past) or scheduled (future published_at). */
  async publish(postId: number, options: PublishOptions = {}): Promise<Post> {
    const json = options.published_at === undefined ? undefined : { published_at: options.published_at };
    return withEtag(
      await this.send({
        method: 'POST',
        path: `/v1/blog/posts/${id(postId)}/publish`,
        json,
        headers: ifMatchHeader(options.ifMatch),
        options: requestOptions(options),
      }),
    );
  }

  async unpublish(postId: number, options: ConditionalOptions = {}): Promise<Post> {
    return withEtag(
      await this.send({
        method: 'POST',
        path: `/v1/blog/posts/${id(postId)}/unpublish`,
        headers: ifMatchHeader(options.ifMatch),
        options: requestOptions(options),
      }),
    );
  }

  /**
   * A signed link that shows the post, whatever its status, as readers will see it (marked as
   * a preview, never indexed or counted).
   */
  async createPreviewLink(postId: number, options: PreviewLinkOptions = {}): Promise<PreviewLink> {
    const json = options.expires_in_seconds === undefined ? {} : { expires_in_seconds: options.expires_in_seconds };
    return this.body({
      method: 'POST',
      path: `/v1/blog/posts/${id(postId)}/preview-links`,
      json,
      options: requestOptions(options),
    });
  }

  /**
   * Deletes a draft: both calls of the two-step delete. A second call retried after a network
   * failure that finds the post gone counts as done (the first attempt deleted it).
   */
  async delete(postId: number, options: ConditionalOptions = {}): Promise<void> {
    const path = `/v1/blog/posts/${id(postId)}`;
    const headers = ifMatchHeader(options.ifMatch);
    const passOn = requestOptions(options);
    let token: string | undefined;
    try {
      await this.send({ method: 'DELETE', path, headers, options: passOn });
      return;
    } catch (err) {
      if (!(err instanceof BlogApiError) || err.code !== 'confirmation_required') throw err;
      token = err.detail('confirmation_token');
      if (!token) throw err;
    }
    try {
      await this.send({ method: 'DELETE', path, headers, json: { confirmation_token: token }, options: passOn });
    } catch (err) {
      if (err instanceof BlogApiError && err.code === 'not_found' && err.attempts > 1) return;
      throw err;
    }
  }
}
