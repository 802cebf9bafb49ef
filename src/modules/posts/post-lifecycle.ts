// Publish, unpublish and the two-step delete (docs/api-behaviour.md, "Posts").
import type { Db } from '../../db/database.js';
import { transactionPerWrite, type WriteTransactions } from '../../db/group-commit.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { recordAudit, type Actor } from '../audit/index.js';
import type { Store } from '../stores/index.js';
import { recordEvent, setPublishSchedule } from '../webhooks/event-outbox.js';
import { checkPrecondition, lockAndCheck, type PostPrecondition } from './post-precondition.js';
import { presentPost } from './post-presenter.js';
import { deleteSearchText } from './post-search.js';
import type { PostView } from './post-schemas.js';
import type { PostService } from './post-service.js';
import type { PostRecord } from './post-repository.js';
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
  async publish(store: Store, id: number, publishedAt: string | null | undefined, actor: Actor, precondition?: PostPrecondition): Promise<PostView> {
    const now = this.clock.now().getTime();
    const current = await this.posts.require(store, id);
    if (precondition) checkPrecondition(precondition, this.view(current, store, now));
    const requested = publishedAt ? Date.parse(publishedAt) : null;
    const decision = decidePublish(current.published_at, requested, now);
    if (decision.changed) {
      await this.writes.run(async (trx) => {
        await lockAndCheck(trx, store.id, id, precondition, (db) => this.posts.present(db, store, id, now));
        await trx.updateTable('posts').set({ published_at: decision.publishedAt, updated_at: now }).where('id', '=', id).where('store_id', '=', store.id).execute();
        await recordAudit(trx, actor, { action: decision.action, resourceType: 'post', resourceId: id, changes: ['published_at'], at: now });
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
        await trx.updateTable('posts').set({ published_at: null, updated_at: now }).where('id', '=', id).where('store_id', '=', store.id).execute();
        await recordAudit(trx, actor, { action: 'post.unpublished', resourceType: 'post', resourceId: id, changes: ['published_at'], at: now });
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
  async delete(store: Store, id: number, confirmationToken: string | undefined, actor: Actor & { keyId: string }, precondition?: PostPrecondition): Promise<void> {
    const now = this.clock.now().getTime();
    const post = await this.posts.require(store, id);
    if (precondition) checkPrecondition(precondition, this.view(post, store, now));
    const status = deriveStatus(post.published_at, now);
    if (status !== 'draft') throw new ApiError('post_is_published', [detail('post.status', status)]);
    const link = await this.db.selectFrom('post_product_links').select('product_id').where('post_id', '=', id).executeTakeFirst();
    if (link) throw new ApiError('post_has_product_links', [detail('post_id', String(id))]);

    if (confirmationToken === undefined) {
      const token = randomToken(24);
      await this.db.deleteFrom('delete_confirmations').where('expires_at', '<=', now).execute();
      await this.db
        .insertInto('delete_confirmations')
        .values({ token_hash: sha256Hex(token), store_id: store.id, post_id: id, key_id: actor.keyId, expires_at: now + DELETE_TOKEN_TTL_SECONDS * 1000 })
        .execute();
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
      const consumed = await trx
        .deleteFrom('delete_confirmations')
        .where('token_hash', '=', sha256Hex(confirmationToken))
        .where('store_id', '=', store.id)
        .where('post_id', '=', id)
        .where('key_id', '=', actor.keyId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(consumed.numDeletedRows) !== 1) {
        throw new ApiError('validation_failed', [
          detail('confirmation_token', 'is invalid, expired, or was issued for another post or key; send the delete again without a body for a new token'),
        ]);
      }
      await trx.deleteFrom('post_categories').where('post_id', '=', id).execute();
      await deleteSearchText(trx, id);
      await trx.deleteFrom('content_fingerprints').where('store_id', '=', store.id).where('post_id', '=', id).execute();
      await trx.deleteFrom('delete_confirmations').where('post_id', '=', id).execute();
      await trx.deleteFrom('posts').where('id', '=', id).where('store_id', '=', store.id).execute();
      await recordAudit(trx, actor, { action: 'post.deleted', resourceType: 'post', resourceId: id, changes: [], at: now });
      await recordEvent(trx, store, 'post.deleted', now, () => ({ id }));
    });
  }

  private view(post: PostRecord, store: Store, now: number): PostView {
    return presentPost(post, this.posts.presentContext(store, now));
  }
}
