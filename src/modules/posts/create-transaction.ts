// SQLite: a post's create as a transaction (its statements are function calls, not round trips;
// the group commit shares one commit among the writes of a turn). The rules and their SQL are
// the ones PostgreSQL sends as one statement (create-statement.ts, create-writes.ts), in the same
// order: the duplicate window before the quota, which counts successful creations only. Like the
// statement, it answers a refusal rather than an error, so PostService.create decides both
// engines' refusals with one rule.
import type { WriteTransactions } from '../../db/group-commit.js';
import { insertAudit } from '../audit/index.js';
import { storeResponse } from '../idempotency/index.js';
import { takeQuotaUnit } from '../quotas/index.js';
import { writeEvent } from '../events/index.js';
import type { CreateRefusal } from './create-statement.js';
import { createRows, type CreatedPost, type CreateWrites } from './create-writes.js';
import { claimFingerprint } from './duplicate-window.js';
import { addCategoryLinks, insertPost } from './post-repository.js';
import { insertSearchText } from './post-search.js';

/** Thrown inside the transaction to undo it when a rule refuses the create. */
class Refused extends Error {
  constructor(readonly refusal: CreateRefusal) {
    super(refusal);
  }
}

/**
 * Writes the post and everything its create records, in a transaction of `writes`; `created`
 * gives the post as created once its id is known; the search tokens go through `beforeCommit`.
 * Resolves with null when the post was created, else the rule that refused it (every write
 * undone), as runCreateStatement does on PostgreSQL.
 */
export async function runCreateTransaction(
  writes: WriteTransactions,
  w: CreateWrites,
  created: (id: number) => CreatedPost,
): Promise<CreateRefusal | null> {
  try {
    await writes.run(async (trx, beforeCommit) => {
      const { id } = await insertPost(trx, w);
      await insertSearchText(trx, w.storeId, id, w.searchText, beforeCommit);
      await addCategoryLinks(trx, w.storeId, id, w.categoryIds);
      const rows = createRows(w, created(id));
      if (!(await claimFingerprint(trx, rows.fingerprint))) throw new Refused('duplicate_content');
      await insertAudit(trx, rows.audit);
      if (!(await takeQuotaUnit(trx, rows.quota))) throw new Refused('quota_exceeded');
      await writeEvent(trx, rows.event, rows.deliveries);
      if (rows.completion) await storeResponse(trx, rows.completion);
    });
    return null;
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
}
