import { NO_VERSIONS, type CacheVersions } from '../../cache/index.js';
import type { Db, Engine } from '../../db/database.js';
import { transactionPerWrite, type WriteTransactions } from '../../db/group-commit.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import type { CursorCodec, CursorHolder, CursorPosition } from '../../lib/cursor.js';
import { recordAudit, type Actor } from '../audit/index.js';
import type { IdBlocks } from '../../db/id-blocks.js';
import type { StoredResponse } from '../idempotency/index.js';
import { quotaExceeded } from '../quotas/index.js';
import { taipeiDay } from '../../lib/time.js';
import { eventBody, recordEvent } from '../events/index.js';
import { runCreateStatement } from './create-statement.js';
import { runCreateTransaction } from './create-transaction.js';
import type { CreatedPost, CreateWrites } from './create-writes.js';
import type { Store } from '../stores/index.js';
import { assertNotDuplicate, duplicateError, findFingerprint } from './duplicate-window.js';
import { checkCategories, contentFingerprint, prepareBody, prepareTitle, resolveCover } from './post-content.js';
import { presentListItem, presentPost, type PresentContext } from './post-presenter.js';
import { inPlaceFilter, type HtmlFilter } from './html-filter-pool.js';
import type { PostPage, PostReadCache } from './post-read-cache.js';
import {
  findPost,
  listPosts,
  postRow,
  replaceCategories,
  sortKeyOf,
  updatePostRow,
  type ListOrder,
  type PostListRecord,
  type PostRecord,
} from './post-repository.js';
import { checkPrecondition, lockAndCheck, type PostPrecondition } from './post-precondition.js';
import { replaceSearchText, searchTerms, searchText } from './post-search.js';
import type {
  ContentPostListQueryInput,
  CreatePostInput,
  PostListQueryInput,
  PostView,
  UpdatePostInput,
} from './post-schemas.js';

const LIST_CURSOR_SCOPE = 'posts';

/** How often a create refused as a duplicate of a since-deleted post is tried (see create). */
const MAX_CREATE_ATTEMPTS = 3;

/** Request field names → the post fields they write (for audit `changes`). */
const FIELD_CHANGES: Record<string, string> = { cover_image_url: 'cover_image' };
const changedFields = (input: object) =>
  Object.keys(input)
    .map((k) => FIELD_CHANGES[k] ?? k)
    .sort();

export interface PostServiceOptions {
  /** Caches presented posts and pages between reads; null (default) reads the database every time. */
  reads?: PostReadCache | null;
  /** Where bodies are filtered (default: on the calling thread). */
  htmlFilter?: HtmlFilter;
  /** How write transactions run (default: each on its own). */
  writes?: WriteTransactions;
  /**
   * The database engine (default sqlite): on PostgreSQL a create is one statement
   * (create-statement.ts) instead of a transaction of many.
   */
  engine?: Engine;
  /** PostgreSQL: ids for new posts taken ahead, which the one-statement create needs. */
  ids?: IdBlocks | null;
}

export interface CreateOptions {
  /** The response to store for replays, given the post as it will be returned; stored with the post. */
  response?: (post: PostView) => StoredResponse;
}

/** What a page read needs, worked out (the cursor checked) once by list(). */
interface PageRead {
  limit: number;
  conditions: Record<string, unknown>;
  holder: CursorHolder;
  after: CursorPosition | undefined;
  reads: PostReadCache | null;
  version: number | null;
  pageKey: string;
  now: number;
  terms: string[] | undefined;
  updatedSince: number | undefined;
  orderBy: ListOrder;
  direction: 'asc' | 'desc';
}

export class PostService {
  private readonly reads: PostReadCache | null;
  private readonly htmlFilter: HtmlFilter;
  private readonly writes: WriteTransactions;
  private readonly ids: IdBlocks | null;
  private readonly engine: Engine;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
    private readonly publicBaseUrl: string,
    options: PostServiceOptions = {},
  ) {
    this.reads = options.reads ?? null;
    this.htmlFilter = options.htmlFilter ?? inPlaceFilter;
    this.writes = options.writes ?? transactionPerWrite(db);
    this.ids = options.ids ?? null;
    this.engine = options.engine ?? 'sqlite';
    if (this.engine === 'postgres' && !this.ids)
      throw new Error('a PostService on PostgreSQL needs ids taken ahead (options.ids)');
  }

  presentContext(store: Store, now = this.clock.now().getTime()): PresentContext {
    return { store, now, publicBaseUrl: this.publicBaseUrl };
  }

  async create(store: Store, input: CreatePostInput, actor: Actor, options: CreateOptions = {}): Promise<PostView> {
    const now = this.clock.now().getTime();
    const title = prepareTitle(input.title, store);
    const body = await prepareBody(input.body_html, store, this.htmlFilter);
    const categoryIds = input.category_ids ?? [];
    const defaultCategoryId = input.default_category_id ?? null;
    await checkCategories(this.db, store, categoryIds, defaultCategoryId);
    const cover = input.cover_image_url
      ? await resolveCover(this.db, store, input.cover_image_url, this.publicBaseUrl)
      : null;
    const fingerprint = contentFingerprint(title, body.html);
    const writes: CreateWrites = {
      storeId: store.id,
      title,
      summary: input.summary ?? null,
      bodyHtml: body.html,
      warnings: JSON.stringify(body.warnings),
      coverImageId: cover?.id ?? null,
      defaultCategoryId,
      now,
      categoryIds,
      searchText: searchText(title, input.summary ?? null, body.html),
      fingerprint,
      audit: {
        keyId: actor.keyId,
        application: actor.application,
        requestId: actor.requestId,
        changes: JSON.stringify(changedFields(input)),
      },
      quota: { day: taipeiDay(now), limit: store.quotas.postsPerDay },
      deliver: store.features.webhooks,
    };
    // The post as created, without reading it back (test: posts-lifecycle, "a created post
    // reads back as created"); categories in the order a read returns them.
    const present = (id: number) =>
      presentPost(
        {
          ...postRow(writes, id),
          cover_basename: cover?.basename ?? null,
          category_ids: [...categoryIds].sort((a, b) => a - b),
        },
        this.presentContext(store, now),
      );
    let post: PostView | undefined;
    const created = (id: number): CreatedPost => {
      post = present(id);
      return { id, eventBody: eventBody(store, 'post.created', now, post), response: options.response?.(post) ?? null };
    };

    // One rule on both engines: a create refused as a duplicate names the post that holds the
    // content, looked up once the refused attempt is undone. That post can be deleted (and its
    // fingerprint with it) before the lookup: then the create is tried again, at most 3 times.
    for (let attempt = 1; ; attempt++) {
      const refusal =
        this.engine === 'postgres'
          ? await runCreateStatement(this.db, writes, created(await this.ids!.take()))
          : await runCreateTransaction(this.writes, writes, created);
      if (refusal === null) return post!;
      if (refusal === 'quota_exceeded') throw quotaExceeded('posts', store.quotas.postsPerDay, now);
      const winner = await findFingerprint(this.db, store.id, fingerprint);
      if (winner) throw duplicateError(winner.post_id);
      if (attempt === MAX_CREATE_ATTEMPTS)
        throw new Error('a create was refused as a duplicate of a post that no longer exists');
    }
  }

  /** `precondition`: the write goes ahead only if it holds for the post as it is (If-Match). */
  async update(
    store: Store,
    id: number,
    input: UpdatePostInput,
    actor: Actor,
    precondition?: PostPrecondition,
  ): Promise<PostView> {
    const now = this.clock.now().getTime();
    const current = await this.require(store, id);
    if (precondition) checkPrecondition(precondition, presentPost(current, this.presentContext(store, now)));
    const title = input.title !== undefined ? prepareTitle(input.title, store) : current.title;
    const body = input.body_html !== undefined ? await prepareBody(input.body_html, store, this.htmlFilter) : null;
    const categoryIds = input.category_ids !== undefined ? (input.category_ids ?? []) : current.category_ids;
    const defaultCategoryId =
      input.default_category_id !== undefined ? input.default_category_id : current.default_category_id;
    await checkCategories(this.db, store, categoryIds, defaultCategoryId);
    const coverImageId =
      input.cover_image_url !== undefined
        ? (await resolveCover(this.db, store, input.cover_image_url, this.publicBaseUrl)).id
        : current.cover_image_id;

    await this.writes.run(async (trx) => {
      await lockAndCheck(trx, store.id, id, precondition, (db) => this.present(db, store, id, now));
      if (input.title !== undefined || body) {
        await assertNotDuplicate(trx, store.id, contentFingerprint(title, body?.html ?? current.body_html), now, id);
      }
      await updatePostRow(trx, store.id, id, {
        title,
        summary: input.summary,
        body: body ? { html: body.html, warnings: JSON.stringify(body.warnings) } : undefined,
        coverImageId,
        defaultCategoryId,
        now,
      });
      if (input.category_ids !== undefined) await replaceCategories(trx, store.id, id, categoryIds);
      if (input.title !== undefined || input.summary !== undefined || body) {
        const summary = input.summary !== undefined ? input.summary : current.summary;
        await replaceSearchText(trx, store.id, id, searchText(title, summary, body?.html ?? current.body_html));
      }
      await recordAudit(trx, actor, {
        action: 'post.updated',
        resourceType: 'post',
        resourceId: id,
        changes: changedFields(input),
        at: now,
      });
      await recordEvent(trx, store, 'post.updated', now, () => this.present(trx, store, id, now));
    });
    return presentPost(await this.require(store, id), this.presentContext(store, now));
  }

  /** `versions`: the request's cache versions (see src/cache); without them the database is read. */
  async get(store: Store, id: number, versions: CacheVersions = NO_VERSIONS): Promise<PostView> {
    const now = this.clock.now().getTime();
    const reads = this.reads;
    const cached = reads?.getPost(versions.content, store, id, now);
    if (cached) return cached;
    const post = await this.require(store, id);
    const view = presentPost(post, this.presentContext(store, now));
    reads?.setPost(versions.content, store, id, view, post.published_at, now);
    return view;
  }

  /** A published post, or 404 for a draft, a scheduled post or none (the Content API). */
  async getPublished(store: Store, id: number, versions: CacheVersions = NO_VERSIONS): Promise<PostView> {
    const post = await this.get(store, id, versions);
    if (post.status !== 'published') throw new ApiError('not_found');
    return post;
  }

  /**
   * The Content API's list: the management list's published-only filter (a condition of the
   * query, so every page is full) in the order of publication, newest first.
   */
  async listPublished(
    store: Store,
    query: ContentPostListQueryInput,
    application: string,
    versions: CacheVersions = NO_VERSIONS,
  ): Promise<PostPage> {
    return this.list(store, { ...query, status: 'published', order_by: 'published_at' }, application, versions);
  }

  /** `application` is the listing key's: next_cursor is issued to the store and that application. */
  async list(
    store: Store,
    query: PostListQueryInput,
    application: string,
    versions: CacheVersions = NO_VERSIONS,
  ): Promise<PostPage> {
    if (query.category_id !== undefined && !store.features.blogCategories)
      throw new ApiError('feature_unavailable', [detail('category_id', 'categories are not enabled for this store')]);
    const limit = query.limit ?? 20;
    const terms = query.q === undefined ? undefined : searchTerms(query.q);
    if (terms?.length === 0) throw new ApiError('validation_failed', [detail('q', 'must contain at least one word')]);
    const orderBy = (query.order_by ?? 'created_at') as ListOrder;
    const direction = (query.direction ?? 'desc') as 'asc' | 'desc';
    const updatedSince = query.updated_since === undefined ? undefined : Date.parse(query.updated_since);
    // Every condition is part of the cursor (a change restarts from the first page) and of the
    // cached page's key. Absent ones are left out so that cursors issued before these
    // parameters existed still continue.
    const conditions: Record<string, unknown> = { status: query.status, category_id: query.category_id };
    if (terms) conditions.q = terms;
    if (orderBy !== 'created_at') conditions.order_by = orderBy;
    if (direction !== 'desc') conditions.direction = direction;
    if (updatedSince !== undefined) conditions.updated_since = updatedSince;
    const holder = { storeId: store.id, application };
    const after = this.cursors.readPosition(LIST_CURSOR_SCOPE, conditions, query.cursor, holder);
    const now = this.clock.now().getTime();
    // A status filter picks rows by the clock, so those pages are read every time.
    const reads = query.status === undefined ? this.reads : null;
    // The application is part of the key because the cached page's next_cursor is issued to it.
    const pageKey = JSON.stringify([application, conditions, after ?? null, limit]);
    const cached = reads?.getPage(versions.content, store, pageKey, now);
    if (cached) return cached;
    const underWay = reads?.pageReadUnderWay(versions.content, store, pageKey);
    if (underWay) {
      await underWay;
      const read = reads!.getPage(versions.content, store, pageKey, now);
      if (read) return read;
    }
    const read = this.readPage(store, query, {
      limit,
      conditions,
      holder,
      after,
      reads,
      version: versions.content,
      pageKey,
      now,
      terms,
      updatedSince,
      orderBy,
      direction,
    });
    return reads ? reads.whilePageRead(versions.content, store, pageKey, read) : read;
  }

  private async readPage(store: Store, query: PostListQueryInput, page: PageRead): Promise<PostPage> {
    const { limit, conditions, holder, after, reads, pageKey, now, terms, updatedSince, orderBy, direction } = page;
    const rows = await listPosts(this.db, {
      storeId: store.id,
      status: query.status as 'draft' | 'scheduled' | 'published' | undefined,
      categoryId: query.category_id,
      terms,
      updatedSince,
      orderBy,
      direction,
      now,
      after: after ? { key: Number(after[0]), id: Number(after[1]) } : undefined,
      limit: limit + 1,
    });
    const positionOf = (p: PostListRecord) => [sortKeyOf(p, orderBy, direction), p.id];
    const { rows: listed, nextCursor } = this.cursors.page(
      LIST_CURSOR_SCOPE,
      conditions,
      rows,
      limit,
      positionOf,
      holder,
    );
    const c = this.presentContext(store, now);
    const result = { data: listed.map((p) => presentListItem(p, c)), meta: { next_cursor: nextCursor, limit } };
    reads?.setPage(
      page.version,
      store,
      pageKey,
      result,
      listed.map((p) => p.published_at),
      now,
    );
    return result;
  }

  /** The post as GET answers it, read through `db` (a transaction, for an event's data). */
  async present(db: Db, store: Store, id: number, now: number): Promise<PostView> {
    return presentPost(await this.require(store, id, db), this.presentContext(store, now));
  }

  /** The post of this store, or 404 (another store's post is indistinguishable from none). */
  async require(store: Store, id: number, db: Db = this.db): Promise<PostRecord> {
    const post = await findPost(db, store.id, id);
    if (!post) throw new ApiError('not_found');
    return post;
  }
}
