// Conditional writes (the lost-update guard): a route may make a write depend on the post as
// it is now, for HTTP an If-Match on its ETag. The condition is checked once before any other
// rule, so a stale client hears 412 first, and again inside the writing transaction with the
// post's row locked, so no change can slip in between the check and the write.
import { ApiError, detail } from '../../lib/api-error.js';
import type { Db } from '../../db/database.js';
import { lockPost } from './post-repository.js';
import type { PostView } from './post-schemas.js';

/** True when the write may go ahead, given the post as a GET would show it now. */
export type PostPrecondition = (current: PostView) => boolean;

export function checkPrecondition(precondition: PostPrecondition | undefined, current: PostView): void {
  if (precondition && !precondition(current)) {
    throw new ApiError('precondition_failed', [
      detail(
        'If-Match',
        'does not match the post’s current ETag: it changed since you read it; GET it again, reapply your change and send the new ETag',
      ),
    ]);
  }
}

/**
 * Inside a write transaction: locks the post's row (until the transaction ends) and checks the
 * condition against the post as committed. Throws not_found when the post is gone.
 */
export async function lockAndCheck(
  trx: Db,
  storeId: number,
  id: number,
  precondition: PostPrecondition | undefined,
  present: (trx: Db) => Promise<PostView>,
): Promise<void> {
  if (!precondition) return;
  if (!(await lockPost(trx, storeId, id))) throw new ApiError('not_found');
  checkPrecondition(precondition, await present(trx));
}
