// BlogClient: one method per operation of the Store Blog Content API, typed from the service's
// own OpenAPI document (src/generated/openapi.ts), over fetch and nothing else.
import type { components, operations } from './generated/openapi.js';
import { BlogApiError, type ErrorDetail } from './errors.js';
import { backoffMs, DEFAULT_RETRY, mayResend, parseRetryAfter, type RetryOptions } from './retry.js';
import { EventsApi, type EventPage } from './events.js';
import { deliveryCalls } from './webhook-recovery.js';

type Schemas = components['schemas'];
export type Post = Schemas['Post'];
export type PostListItem = Schemas['PostListItem'];
export type PostPage = Schemas['PostPage'];
export type NewPost = Schemas['NewPost'];
export type PostChanges = Schemas['PostChanges'];
export type Image = Schemas['Image'];
export type Category = Schemas['Category'];
export type NewCategory = Schemas['NewCategory'];
export type Identity = Schemas['Identity'];
export type AuditEvent = Schemas['AuditEvent'];
export type AuditEventPage = Schemas['AuditEventPage'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type NewWebhookEndpoint = Schemas['NewWebhookEndpoint'];
export type WebhookEndpointChanges = Schemas['WebhookEndpointChanges'];
export type Delivery = Schemas['Delivery'];
export type DeliveryPage = Schemas['DeliveryPage'];
export type PostListQuery = NonNullable<operations['listPosts']['parameters']['query']>;
export type CategoryChanges = operations['updateCategory']['requestBody']['content']['application/json'];
export type PreviewLink = operations['createPreviewLink']['responses'][201]['content']['application/json'];
export type AuditEventQuery = NonNullable<operations['listAuditEvents']['parameters']['query']>;
export type DeliveryQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

export interface BlogClientOptions {
  /** The service's address, e.g. https://blog.example.com */
  baseUrl: string;
  /** svc_live_<key_id>_<secret> */
  apiKey: string;
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
  /** Back-off tuning and, for tests, the random source and the sleep. */
  retry?: Partial<Omit<RetryOptions, 'maxRetries'>>;
}

/** An If-Match precondition: an ETag, or a post this client returned (its ETag is used). */
export type IfMatch = string | Post;

// The ETag each returned post came with, so a post can be passed back as `ifMatch`.
const etags = new WeakMap<object, string>();

/** The ETag the service sent with this post (from get, create, update, publish, unpublish). */
export function etagOf(post: Post): string | undefined {
  return etags.get(post);
}

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const id = (value: string | number) => encodeURIComponent(String(value));

function ifMatchHeader(ifMatch: IfMatch | undefined): Record<string, string> {
  if (ifMatch === undefined) return {};
  const etag = typeof ifMatch === 'string' ? ifMatch : etagOf(ifMatch);
  if (!etag) throw new TypeError('ifMatch: this post carries no ETag; pass the ETag string or a post returned by this client');
  return { 'if-match': etag };
}

export class BlogClient {
  readonly posts: PostsApi;
  readonly categories: CategoriesApi;
  readonly images: ImagesApi;
  readonly audit: AuditApi;
  readonly webhooks: WebhooksApi;
  /** The events feed: every change in commit order (src/events.ts). */
  readonly events: EventsApi;
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof fetch;
  private readonly retry: RetryOptions;

  constructor(options: BlogClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.retry = { ...DEFAULT_RETRY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries };
    const send = (call: Call) => this.send(call);
    this.posts = new PostsApi(send);
    this.categories = new CategoriesApi(send);
    this.images = new ImagesApi(send);
    this.audit = new AuditApi(send);
    this.webhooks = new WebhooksApi(send);
    this.events = new EventsApi(async (query) => (await send({ method: 'GET', path: '/v1/events', query })).body as EventPage);
  }

  /** The calling key: store, scopes, features, limits, quotas and rate limits. */
  async me(): Promise<Identity> {
    return (await this.send({ method: 'GET', path: '/v1/me' })).body as Identity;
  }

  /** Sends a call, retrying as src/retry.ts says; resolves with a 2xx answer or throws. */
  private async send(call: Call): Promise<Answer> {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: 'application/json', ...call.headers };
    let body: string | FormData | undefined = call.form;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    }
    const resendable = mayResend(call.method, headers);
    for (let attempt = 0; ; attempt++) {
      const mayRetry = resendable && attempt < this.retry.maxRetries;
      let res: Response;
      try {
        res = await this.fetchImpl(url, { method: call.method, headers, body });
      } catch (err) {
        if (!mayRetry) throw err;
        await this.retry.sleep(backoffMs(attempt, this.retry, null));
        continue;
      }
      if (res.ok) return { status: res.status, headers: res.headers, body: res.status === 204 || res.status === 304 ? undefined : await readJson(res) };
      const error = await toError(res, attempt + 1);
      if (!mayRetry || !error.retryable) throw error;
      await this.retry.sleep(backoffMs(attempt, this.retry, error.retryAfterSeconds));
    }
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  return text === '' ? undefined : JSON.parse(text);
}

/** Statuses a proxy answers without our envelope when the service is briefly unreachable. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

async function toError(res: Response, attempts: number): Promise<BlogApiError> {
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
  const text = await res.text().catch(() => '');
  let envelope: { error?: { code?: unknown; message?: unknown; details?: unknown; request_id?: unknown; retryable?: unknown } } | undefined;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  const e = envelope?.error;
  if (e && typeof e.code === 'string' && typeof e.message === 'string') {
    return Object.assign(
      new BlogApiError(res.status, { code: e.code, message: e.message, details: Array.isArray(e.details) ? (e.details as ErrorDetail[]) : [], request_id: typeof e.request_id === 'string' ? e.request_id : null, retryable: e.retryable === true }, retryAfter),
      { attempts },
    );
  }
  const message = `HTTP ${res.status} without the service's error envelope${text ? `: ${text.slice(0, 200)}` : ''}`;
  return Object.assign(new BlogApiError(res.status, { code: 'unexpected_response', message, request_id: res.headers.get('x-request-id'), retryable: GATEWAY_STATUSES.has(res.status) }, retryAfter), { attempts });
}

type Send = (call: Call) => Promise<Answer>;

function withEtag(answer: Answer): Post {
  const post = answer.body as Post;
  const etag = answer.headers.get('etag');
  if (etag) etags.set(post, etag);
  return post;
}

async function* walk<T, Q extends { cursor?: string }>(query: Q, page: (query: Q) => Promise<{ data: T[]; meta: { next_cursor: string | null } }>): AsyncGenerator<T> {
  let cursor = query.cursor;
  do {
    const result = await page({ ...query, cursor });
    yield* result.data;
    cursor = result.meta.next_cursor ?? undefined;
  } while (cursor);
}

class PostsApi {
  constructor(private readonly send: Send) {}

  /**
   * Creates a draft. An Idempotency-Key is generated when none is given and reused on this
   * call's own retries, so a retry never creates a second post.
   */
  async create(input: NewPost, options: { idempotencyKey?: string } = {}): Promise<Post> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    return withEtag(await this.send({ method: 'POST', path: '/v1/blog/posts', json: input, headers: { 'idempotency-key': key } }));
  }

  async get(postId: number): Promise<Post> {
    return withEtag(await this.send({ method: 'GET', path: `/v1/blog/posts/${id(postId)}` }));
  }

  /** With `ifMatch`, refused (412 precondition_failed, nothing written) if the post changed since. */
  async update(postId: number, changes: PostChanges, options: { ifMatch?: IfMatch } = {}): Promise<Post> {
    return withEtag(await this.send({ method: 'PATCH', path: `/v1/blog/posts/${id(postId)}`, json: changes, headers: ifMatchHeader(options.ifMatch) }));
  }

  /** Every post matching `query`, newest first, fetching page after page as you iterate. */
  list(query: Omit<PostListQuery, 'cursor'> & { cursor?: string } = {}): AsyncGenerator<PostListItem> {
    return walk(query, (q) => this.listPage(q));
  }

  async listPage(query: PostListQuery = {}): Promise<PostPage> {
    return (await this.send({ method: 'GET', path: '/v1/blog/posts', query })).body as PostPage;
  }

  /** Now (no published_at, null or past) or scheduled (future published_at). */
  async publish(postId: number, options: { published_at?: string | null; ifMatch?: IfMatch } = {}): Promise<Post> {
    const json = options.published_at === undefined ? undefined : { published_at: options.published_at };
    return withEtag(await this.send({ method: 'POST', path: `/v1/blog/posts/${id(postId)}/publish`, json, headers: ifMatchHeader(options.ifMatch) }));
  }

  async unpublish(postId: number, options: { ifMatch?: IfMatch } = {}): Promise<Post> {
    return withEtag(await this.send({ method: 'POST', path: `/v1/blog/posts/${id(postId)}/unpublish`, headers: ifMatchHeader(options.ifMatch) }));
  }

  /**
   * A signed link that shows the post, whatever its status, as readers will see it (marked as
   * a preview, never indexed or counted); it works for `expires_in_seconds` (60 to 604,800,
   * default one day). Not retried: it is a POST without an Idempotency-Key.
   */
  async createPreviewLink(postId: number, options: { expires_in_seconds?: number } = {}): Promise<PreviewLink> {
    return (await this.send({ method: 'POST', path: `/v1/blog/posts/${id(postId)}/preview-links`, json: options })).body as PreviewLink;
  }

  /**
   * Deletes a draft: both calls of the two-step delete. A second call retried after a network
   * failure that finds the post gone counts as done (the first attempt deleted it).
   */
  async delete(postId: number, options: { ifMatch?: IfMatch } = {}): Promise<void> {
    const path = `/v1/blog/posts/${id(postId)}`;
    const headers = ifMatchHeader(options.ifMatch);
    let token: string | undefined;
    try {
      await this.send({ method: 'DELETE', path, headers });
      return;
    } catch (err) {
      if (!(err instanceof BlogApiError) || err.code !== 'confirmation_required') throw err;
      token = err.detail('confirmation_token');
      if (!token) throw err;
    }
    try {
      await this.send({ method: 'DELETE', path, headers, json: { confirmation_token: token } });
    } catch (err) {
      if (err instanceof BlogApiError && err.code === 'not_found' && err.attempts > 1) return;
      throw err;
    }
  }
}

class CategoriesApi {
  constructor(private readonly send: Send) {}

  /** The whole tree, ordered by id. */
  async list(): Promise<Category[]> {
    return ((await this.send({ method: 'GET', path: '/v1/blog/categories' })).body as Schemas['CategoryList']).data;
  }

  /** Renames (`name`) and/or moves (`parent_id`, null: to the root) a category with its subtree. */
  async update(categoryId: number, changes: CategoryChanges): Promise<Category> {
    return (await this.send({ method: 'PATCH', path: `/v1/blog/categories/${id(categoryId)}`, json: changes })).body as Category;
  }

  /**
   * Deletes a category without children (else `category_has_children`); posts lose it. A call
   * retried after a network failure that finds the category gone counts as done.
   */
  async delete(categoryId: number): Promise<void> {
    try {
      await this.send({ method: 'DELETE', path: `/v1/blog/categories/${id(categoryId)}` });
    } catch (err) {
      if (err instanceof BlogApiError && err.code === 'not_found' && err.attempts > 1) return;
      throw err;
    }
  }

  /** With `reuseExisting`, a name already used under that parent returns that category instead of failing. */
  async create(input: NewCategory, options: { idempotencyKey?: string; reuseExisting?: boolean } = {}): Promise<Category> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    try {
      return (await this.send({ method: 'POST', path: '/v1/blog/categories', json: input, headers: { 'idempotency-key': key } })).body as Category;
    } catch (err) {
      if (!options.reuseExisting || !(err instanceof BlogApiError) || err.code !== 'category_name_conflict') throw err;
      const existingId = Number(err.detail('category_id'));
      const existing = (await this.list()).find((c) => c.id === existingId);
      if (!existing) throw err;
      return existing;
    }
  }
}

class ImagesApi {
  constructor(private readonly send: Send) {}

  /** Uploads an image (JPEG, PNG, GIF or WebP); an identical image already uploaded is returned as is. */
  async upload(data: Uint8Array | Blob, options: { filename?: string } = {}): Promise<Image> {
    const form = new FormData();
    form.append('file', data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>]), options.filename ?? 'image');
    return (await this.send({ method: 'POST', path: '/v1/media/images', form })).body as Image;
  }

  async delete(imageId: string): Promise<void> {
    await this.send({ method: 'DELETE', path: `/v1/media/images/${id(imageId)}` });
  }
}

class AuditApi {
  constructor(private readonly send: Send) {}

  /** Every audit event matching `query`, newest first, page after page. */
  list(query: AuditEventQuery = {}): AsyncGenerator<AuditEvent> {
    return walk(query, (q) => this.listPage(q));
  }

  async listPage(query: AuditEventQuery = {}): Promise<AuditEventPage> {
    return (await this.send({ method: 'GET', path: '/v1/audit/events', query })).body as AuditEventPage;
  }
}

class WebhooksApi {
  constructor(private readonly send: Send) {}

  /** The answer carries the signing secret, shown only here: keep it for verifyWebhook. */
  async create(input: NewWebhookEndpoint): Promise<WebhookEndpointWithSecret> {
    return (await this.send({ method: 'POST', path: '/v1/webhooks', json: input })).body as WebhookEndpointWithSecret;
  }

  async list(): Promise<WebhookEndpoint[]> {
    return ((await this.send({ method: 'GET', path: '/v1/webhooks' })).body as Schemas['WebhookEndpointList']).data;
  }

  async get(endpointId: string): Promise<WebhookEndpoint> {
    return (await this.send({ method: 'GET', path: `/v1/webhooks/${id(endpointId)}` })).body as WebhookEndpoint;
  }

  async update(endpointId: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint> {
    return (await this.send({ method: 'PATCH', path: `/v1/webhooks/${id(endpointId)}`, json: changes })).body as WebhookEndpoint;
  }

  async delete(endpointId: string): Promise<void> {
    await this.send({ method: 'DELETE', path: `/v1/webhooks/${id(endpointId)}` });
  }

  /** A new secret (returned here only); the old one keeps signing beside it for 24 hours. */
  async rotateSecret(endpointId: string): Promise<WebhookEndpointWithSecret> {
    return (await this.send({ method: 'POST', path: `/v1/webhooks/${id(endpointId)}/rotate-secret` })).body as WebhookEndpointWithSecret;
  }

  /** Queues a webhook.test event to this endpoint; returns its delivery. */
  async test(endpointId: string): Promise<Delivery> {
    return (await this.send({ method: 'POST', path: `/v1/webhooks/${id(endpointId)}/test` })).body as Delivery;
  }

  /** Every delivery to this endpoint, newest first, page after page. */
  deliveries(endpointId: string, query: DeliveryQuery = {}): AsyncGenerator<Delivery> {
    return walk(query, (q) => this.deliveriesPage(endpointId, q));
  }

  async deliveriesPage(endpointId: string, query: DeliveryQuery = {}): Promise<DeliveryPage> {
    return (await this.send({ method: 'GET', path: `/v1/webhooks/${id(endpointId)}/deliveries`, query })).body as DeliveryPage;
  }

  /** Recovery (src/webhook-recovery.ts): a delivery with its attempts, retry, replay. */
  readonly recovery = deliveryCalls((call) => this.send(call));
  readonly getDelivery = this.recovery.getDelivery;
  readonly retryDelivery = this.recovery.retryDelivery;
  readonly replay = this.recovery.replay;
}
