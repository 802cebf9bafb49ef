// A scheduled post turns published by the clock alone (its status is derived from its publish
// time), so no write announces it. Its `post.published` event waits in webhook_schedules instead,
// and this scan sends the ones that are due. Several instances scan the same table: taking a row
// is a conditional delete in the transaction that records the event, so exactly one of them
// records it, and a crash before the commit leaves the row for the next scan.
import type { Db } from '../../db/database.js';
import { findPost } from './post-repository.js';
import { presentPost } from './post-presenter.js';
import { storeFromRow } from '../stores/index.js';
import { recordEvent } from '../events/index.js';

/** Most posts taken per scan; the rest wait for the next one, a second later. */
const SCAN_BATCH = 100;

/** Records the `post.published` event of every scheduled post whose time has come. Returns how many it took. */
export async function publishDueSchedules(db: Db, now: number, publicBaseUrl: string): Promise<number> {
  const due = await db
    .selectFrom('webhook_schedules')
    .selectAll()
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(SCAN_BATCH)
    .execute();
  let taken = 0;
  for (const row of due) {
    await db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('webhook_schedules')
        .where('post_id', '=', row.post_id)
        .where('due_at', '=', row.due_at)
        .executeTakeFirst();
      // Another instance took it first (or the post was rescheduled meanwhile).
      if (Number(deleted.numDeletedRows) !== 1) return;
      taken++;
      const storeRow = await trx.selectFrom('stores').selectAll().where('id', '=', row.store_id).executeTakeFirst();
      const post = await findPost(trx, row.store_id, row.post_id);
      if (!storeRow || !post || post.published_at !== row.due_at) return;
      const store = storeFromRow(storeRow);
      await recordEvent(trx, store, 'post.published', row.due_at, () =>
        presentPost(post, { store, now: Math.max(now, row.due_at), publicBaseUrl }),
      );
    });
  }
  return taken;
}
