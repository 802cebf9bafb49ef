// BlogClient: one method per operation of the Store Blog Content API, grouped by resource
// (resources/), typed from the service's own OpenAPI document (generated/openapi.ts), over
// fetch and nothing else, so it runs wherever fetch and Web Crypto exist.
import { AuditApi } from './resources/audit.js';
import { CategoriesApi } from './resources/categories.js';
import { EventsApi } from './resources/events.js';
import { ImagesApi } from './resources/images.js';
import { PostsApi } from './resources/posts.js';
import { requestOptions } from './resources/resource.js';
import { WebhooksApi } from './resources/webhooks.js';
import { createTransport, type ClientOptions } from './client-options.js';
import type { RequestOptions, Transport } from './transport.js';
import type { Identity, Post } from './types.js';

/** Options of a BlogClient (see ClientOptions). */
export type BlogClientOptions = ClientOptions;

export class BlogClient {
  readonly posts: PostsApi;
  readonly categories: CategoriesApi;
  readonly images: ImagesApi;
  readonly audit: AuditApi;
  readonly webhooks: WebhooksApi;
  /** The events feed: every change in commit order, each once (resources/events.ts). */
  readonly events: EventsApi;
  private readonly transport: Transport;

  constructor(options: BlogClientOptions) {
    this.transport = createTransport(options);
    this.posts = new PostsApi(this.transport);
    this.categories = new CategoriesApi(this.transport);
    this.images = new ImagesApi(this.transport);
    this.audit = new AuditApi(this.transport);
    this.webhooks = new WebhooksApi(this.transport);
    this.events = new EventsApi(this.transport);
  }

  /** The calling key: store, scopes, features, limits, quotas and rate limits. */
  async me(options?: RequestOptions): Promise<Identity> {
    return (await this.transport.send({ method: 'GET', path: '/v1/me', options: requestOptions(options) }))
      .body as Identity;
  }
}

/** The ETag the service sent with this post (same as `post.etag`). */
export function etagOf(post: Pick<Post, 'etag'>): string | undefined {
  return post.etag ?? undefined;
}
