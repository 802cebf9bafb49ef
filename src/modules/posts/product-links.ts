// Product links: the shop's back office links its products to a post (the operator CLI's
// `post link-product|unlink-product`; the API offers no such write, it only refuses to delete a
// linked post). A change is audited like the API's writes, as `post.updated` with
// `changes: ["product_ids"]`; a link that changes nothing writes nothing. Product links are not
// part of the post as the API shows it, so no webhook event and no new `updated_at`.
import type { Db } from '../../db/database.js';
import { ApiError } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type Actor } from '../audit/index.js';
import type { Store } from '../stores/index.js';
import { addProductLink, lockPost, productIdsOf, removeProductLink } from './post-repository.js';

export class ProductLinks {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Links (`linked`) or unlinks the product; answers the post's product ids after the change. */
  async set(store: Store, postId: number, productId: string, linked: boolean, actor: Actor): Promise<string[]> {
    const now = this.clock.now().getTime();
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockPost(trx, store.id, postId))) throw new ApiError('not_found');
      const changed = linked
        ? await addProductLink(trx, { storeId: store.id, postId, productId, now })
        : await removeProductLink(trx, postId, productId);
      if (changed)
        await recordAudit(trx, actor, {
          action: 'post.updated',
          resourceType: 'post',
          resourceId: postId,
          changes: ['product_ids'],
          at: now,
        });
      return productIdsOf(trx, postId);
    });
  }
}
