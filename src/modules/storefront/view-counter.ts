// Page views are counted in memory and written in batches: one
// `UPDATE posts SET view_count = view_count + n` per distinct n about once a second (a periodic
// job, src/context.ts), instead of one write per view. The page never waits for the database, a
// hot post costs one row write per second however popular it is, and additive updates stay exact
// with any number of processes. The price: counts not yet flushed (at most ~1 s, more while the
// database is failing) are lost if the process dies without closing; close() flushes.
import type { Db } from '../../db/database.js';

export const VIEW_FLUSH_INTERVAL_MS = 1000;
/** Keeps each statement's IN list to a size both engines handle well. */
const IDS_PER_STATEMENT = 500;

export class ViewCounter {
  private pending = new Map<number, number>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** Told when the flush on close() fails (the periodic flushes report through their job). */
  onError: (err: unknown) => void = () => undefined;

  constructor(private readonly db: Db) {}

  /** Counts one view; synchronous, so concurrent requests in this process never lose one. */
  record(postId: number): void {
    if (this.closed) return;
    this.pending.set(postId, (this.pending.get(postId) ?? 0) + 1);
  }

  /** Writes everything counted so far; flushes run one after another. */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.write());
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush().catch((err) => this.onError(err));
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    // Take the batch before awaiting anything: views arriving meanwhile go to the next one.
    const batch = this.pending;
    this.pending = new Map();
    const groups = new Map<number, number[]>();
    for (const [id, n] of batch) groups.set(n, [...(groups.get(n) ?? []), id]);
    const statements: Array<{ n: number; ids: number[] }> = [];
    for (const [n, ids] of groups) {
      ids.sort((a, b) => a - b);
      for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT)
        statements.push({ n, ids: ids.slice(i, i + IDS_PER_STATEMENT) });
    }
    for (let i = 0; i < statements.length; i++) {
      const { n, ids } = statements[i];
      try {
        await this.db
          .updateTable('posts')
          .set((eb) => ({ view_count: eb('view_count', '+', n) }))
          .where('id', 'in', ids)
          .execute();
      } catch (err) {
        // Each statement commits or not as a whole: give back exactly the unwritten counts (the
        // next flush writes them).
        for (const rest of statements.slice(i))
          for (const id of rest.ids) this.pending.set(id, (this.pending.get(id) ?? 0) + rest.n);
        throw err;
      }
    }
  }
}
