// Publish, unpublish and the two-step delete (docs/api-behaviour.md, "Posts").
import type { Db } from '../../db/database.js';
import { transactionPerWrite, type WriteTransactions } from '../../db/group-commit.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { recordAudit, type Actor } from '../audit/index.js';
import type { Store } from '../stores/index.js';
import { recordEvent, setPublishSchedule } from '../events/index.js';
import { checkPrecondition, lockAndCheck, type PostPrecondition } from './post-precondition.js';
import { presentPost } from './post-presenter.js';
import type { PostView } from './post-schemas.js';
import type { PostService } from './post-service.js';
import {
  consumeDeleteConfirmation,
  deletePostRows,
  hasProductLinks,
  saveDeleteConfirmation,
  setPublishedAt,
  type PostRecord,
} from './post-repository.js';
import { decidePublish, deriveStatus } from './post-state.js';

export const DELETE_TOKEN_TTL_SECONDS = 300;

export class PostLifecycle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly posts: PostService,
    private readonly writes: WriteTransactions = transactionPerWrite(db),
  ) {}

  /** `precondition` (here and below): the call goes ahead only if it holds for the post as it is (If-Match). */
  async publish(
    store: Store,
    id: number,
    publishedAt: string | null | undefined,
    actor: Actor,
    precondition?: PostPrecondition,
  ): Promise<PostView> {
    const now = this.clock.now().getTime();
    const current = await this.posts.require(store, id);
    if (precondition) checkPrecondition(precondition, this.view(current, store, now));
    const requested = publishedAt ? Date.parse(publishedAt) : null;
    const decision = decidePublish(current.published_at, requested, now);
    if (decision.changed) {
      await this.writes.run(async (trx) => {
        await lockAndCheck(trx, store.id, id, precondition, (db) => this.posts.present(db, store, id, now));
        await setPublishedAt(trx, store.id, id, decision.publishedAt, now);
        await recordAudit(trx, actor, {
          action: decision.action,
          resourceType: 'post',
          resourceId: id,
          changes: ['published_at'],
          at: now,
        });
        await setPublishSchedule(trx, store.id, id, decision.publishedAt, now);
        await recordEvent(trx, store, decision.action, now, () => this.posts.present(trx, store, id, now));
      });
    }
    return presentPost(await this.posts.require(store, id), this.posts.presentContext(store, now));
  }

  /** Published or scheduled → draft; a draft is returned unchanged (no write, no event). */
  async unpublish(store: Store, id: number, actor: Actor, precondition?: PostPrecondition): Promise<PostView> {
    const now = this.clock.now().getTime();
    const current = await this.posts.require(store, id);
    if (precondition) checkPrecondition(precondition, this.view(current, store, now));
    if (current.published_at !== null) {
      await this.writes.run(async (trx) => {
        await lockAndCheck(trx, store.id, id, precondition, (db) => this.posts.present(db, store, id, now));
        await setPublishedAt(trx, store.id, id, null, now);
        await recordAudit(trx, actor, {
          action: 'post.unpublished',
          resourceType: 'post',
          resourceId: id,
          changes: ['published_at'],
          at: now,
        });
        await setPublishSchedule(trx, store.id, id, null, now);
        await recordEvent(trx, store, 'post.unpublished', now, () => this.posts.present(trx, store, id, now));
      });
    }
    return presentPost(await this.posts.require(store, id), this.posts.presentContext(store, now));
  }

  /**
   * Step 1 (no token): checks the post can be deleted, then answers 409 confirmation_required
   * with a token valid 5 minutes for this post and this key. Step 2 (token): deletes.
   */
  async delete(
    store: Store,
    id: number,
    confirmationToken: string | undefined,
    actor: Actor & { keyId: string },
    precondition?: PostPrecondition,
  ): Promise<void> {
    const now = this.clock.now().getTime();
    const post = await this.posts.require(store, id);
    if (precondition) checkPrecondition(precondition, this.view(post, store, now));
    const status = deriveStatus(post.published_at, now);
    if (status !== 'draft') throw new ApiError('post_is_published', [detail('post.status', status)]);
    if (await hasProductLinks(this.db, id))
      throw new ApiError('post_has_product_links', [detail('post_id', String(id))]);

    if (confirmationToken === undefined) {
      const token = randomToken(24);
      await saveDeleteConfirmation(
        this.db,
        {
          tokenHash: sha256Hex(token),
          storeId: store.id,
          postId: id,
          keyId: actor.keyId,
          expiresAt: now + DELETE_TOKEN_TTL_SECONDS * 1000,
        },
        now,
      );
      throw new ApiError('confirmation_required', [
        detail('confirmation_token', token),
        detail('expires_in_seconds', String(DELETE_TOKEN_TTL_SECONDS)),
        detail('post.title', post.title),
        detail('post.status', status),
      ]);
    }

    await this.db.transaction().execute(async (trx) => {
      await lockAndCheck(trx, store.id, id, precondition, (db) => this.posts.present(db, store, id, now));
      // Single use: the token row is consumed by the delete that uses it.
      const consumed = await consumeDeleteConfirmation(
        trx,
        { tokenHash: sha256Hex(confirmationToken), storeId: store.id, postId: id, keyId: actor.keyId },
        now,
      );
      if (!consumed) {
        throw new ApiError('validation_failed', [
          detail(
            'confirmation_token',
            'is invalid, expired, or was issued for another post or key; send the delete again without a body for a new token',
          ),
        ]);
      }
      await deletePostRows(trx, store.id, id);
      await recordAudit(trx, actor, {
        action: 'post.deleted',
        resourceType: 'post',
        resourceId: id,
        changes: [],
        at: now,
      });
      await recordEvent(trx, store, 'post.deleted', now, () => ({ id }));
    });
  }

  private view(post: PostRecord, store: Store, now: number): PostView {
    return presentPost(post, this.posts.presentContext(store, now));
  }
}
