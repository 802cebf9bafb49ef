// ContentClient: the Content API (`/v1/content/…`) for storefronts and browsers, with a key of
// scope `read_published`, which may sit in a public page: published posts (paged, newest
// published first) and the store's categories. It imports no method of BlogClient, so a page that
// uses only ContentClient bundles only this, the transport and the paging.
import { createTransport, type ClientOptions } from './client-options.js';
import { PageIterator } from './paging.js';
import { id, requestOptions, withEtag } from './resources/resource.js';
import type { RequestOptions, Transport } from './transport.js';
import type { Category, Identity, Post, PostListItem, PostPage, PublishedPostListQuery } from './types.js';

/** Options of a ContentClient: those of every client (the key is a `read_published` key). */
export type ContentClientOptions = ClientOptions;

export class ContentClient {
  private readonly transport: Transport;

  constructor(options: ContentClientOptions) {
    this.transport = createTransport(options);
  }

  /** Every published post, page after page as it is iterated (`for await`, or `autoPagingToArray`). */
  listPosts(query: PublishedPostListQuery = {}, options?: RequestOptions): PageIterator<PostListItem> {
    return new PageIterator(query.cursor, (cursor) =>
      this.listPostsPage({ ...query, ...(cursor === undefined ? {} : { cursor }) }, options),
    );
  }

  /** One page of published posts; pass `meta.next_cursor` as `cursor` for the next. */
  async listPostsPage(query: PublishedPostListQuery = {}, options?: RequestOptions): Promise<PostPage> {
    const answer = await this.transport.send({
      method: 'GET',
      path: '/v1/content/posts',
      query,
      options: requestOptions(options),
    });
    return answer.body as PostPage;
  }

  /** A published post with its body; a draft, scheduled or unknown id throws `not_found`. */
  async getPost(postId: number, options?: RequestOptions): Promise<Post> {
    return withEtag(
      await this.transport.send({
        method: 'GET',
        path: `/v1/content/posts/${id(postId)}`,
        options: requestOptions(options),
      }),
    );
  }

  /** The store's categories, ordered by id (the tree from `parent_id`). */
  async listCategories(options?: RequestOptions): Promise<Category[]> {
    const answer = await this.transport.send({
      method: 'GET',
      path: '/v1/content/categories',
      options: requestOptions(options),
    });
    return (answer.body as { data: Category[] }).data;
  }

  /** The calling key: its store and scopes (`['read_published']`), features and limits. */
  async me(options?: RequestOptions): Promise<Identity> {
    return (await this.transport.send({ method: 'GET', path: '/v1/me', options: requestOptions(options) }))
      .body as Identity;
  }
}
