// A scheduled post turns published by the clock alone (its status is derived from its publish
// time), so no write announces it. Its `post.published` event waits in webhook_schedules instead,
// and this scan sends the ones that are due. Several instances scan the same table: taking a row
// is a conditional delete in the transaction that records the event, so exactly one of them
// records it, and a crash before the commit leaves the row for the next scan.
import type { Db } from '../../db/database.js';
import { dueSchedules, findPost, takeSchedule } from './post-repository.js';
import { presentPost } from './post-presenter.js';
import { findStoreById, storeFromRow } from '../stores/index.js';
import { recordEvent } from '../events/index.js';

/** Most posts taken per scan; the rest wait for the next one, a second later. */
const SCAN_BATCH = 100;

/** Records the `post.published` event of every scheduled post whose time has come. Returns how many it took. */
export async function publishDueSchedules(db: Db, now: number, publicBaseUrl: string): Promise<number> {
  const due = await dueSchedules(db, now, SCAN_BATCH);
  let taken = 0;
  for (const row of due) {
    await db.transaction().execute(async (trx) => {
      // Another instance took it first (or the post was rescheduled meanwhile).
      if (!(await takeSchedule(trx, row.post_id, row.due_at))) return;
      taken++;
      const storeRow = await findStoreById(trx, row.store_id);
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
