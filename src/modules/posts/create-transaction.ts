// SQLite: a post's create as a transaction (its statements are function calls, not round trips;
// the group commit shares one commit among the writes of a turn). The rules and their SQL are
// the ones PostgreSQL sends as one statement (create-statement.ts, create-writes.ts), in the same
// order: the duplicate window before the quota, which counts successful creations only.
import type { Db } from '../../db/database.js';
import type { BeforeCommit } from '../../db/group-commit.js';
import { insertAudit } from '../audit/index.js';
import { storeResponse } from '../idempotency/index.js';
import { quotaExceeded, takeQuotaUnit } from '../quotas/index.js';
import { writeEvent } from '../events/index.js';
import { createRows, type CreatedPost, type CreateWrites } from './create-writes.js';
import { claimFingerprint } from './duplicate-window.js';
import { addCategoryLinks, insertPost } from './post-repository.js';
import { insertSearchText } from './post-search.js';

/**
 * Writes the post and everything its create records, in `trx`; `created` gives the post as
 * created once its id is known; the search tokens go through `beforeCommit` when given. Throws
 * duplicate_content or quota_exceeded (the caller's transaction then undoes every write).
 * Resolves with the post's id.
 */
export async function runCreateTransaction(
  trx: Db,
  w: CreateWrites,
  created: (id: number) => CreatedPost,
  beforeCommit?: BeforeCommit,
): Promise<number> {
  const { id } = await insertPost(trx, w);
  await insertSearchText(trx, w.storeId, id, w.searchText, beforeCommit);
  await addCategoryLinks(trx, w.storeId, id, w.categoryIds);
  const rows = createRows(w, created(id));
  await claimFingerprint(trx, rows.fingerprint);
  await insertAudit(trx, rows.audit);
  if (!(await takeQuotaUnit(trx, rows.quota))) throw quotaExceeded('posts', rows.quota.limit, w.now);
  await writeEvent(trx, rows.event, rows.deliveries);
  if (rows.completion) await storeResponse(trx, rows.completion);
  return id;
}
