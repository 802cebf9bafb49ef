// Write transactions of the hot paths (creating a post, taking an idempotency key) run through
// here. On SQLite a commit writes every changed page to the WAL with a pair of system calls per
// page, and was the largest single cost of a create (docs/performance.md); so the writes that
// reach this point in the same turn of the event loop share one transaction and one commit
// (group commit). On PostgreSQL each write is its own transaction: the server already groups
// concurrent commits.
import { sql } from 'kysely';
import type { Db, Engine } from './database.js';

export interface WriteTransactions {
  /**
   * Runs `work` in a transaction and resolves with its result once that transaction has
   * committed. `work` must only use `trx` and must not wait for anything but its statements:
   * other writes may share the transaction and wait for it to end.
   * If `work` throws, its changes are undone and the error is passed on; other writes are not
   * affected.
   */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T>;
}

/** Most writes in one group commit, so that a burst never holds the database for long. */
export const MAX_WRITES_PER_COMMIT = 64;

/** Group commit on SQLite, a transaction per write on PostgreSQL. */
export function writeTransactions(db: Db, engine: Engine): WriteTransactions {
  return engine === 'sqlite' ? new GroupCommit(db) : transactionPerWrite(db);
}

/** Each write in a transaction of its own. */
export function transactionPerWrite(db: Db): WriteTransactions {
  return { run: (work) => db.transaction().execute(work) };
}

interface PendingWrite {
  work: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes wait for the next turn of the event loop (setImmediate), so every request that reached
 * its write in this turn joins; then they run one after the other, each inside a savepoint, and
 * commit together. A write's result is released only after the commit, so no caller is told of a
 * write that is not committed. A write that fails is rolled back to its savepoint and told at
 * once; if the transaction itself fails (the commit, or an error that ends the transaction),
 * every write in it that had not failed on its own is told of that error.
 */
export class GroupCommit implements WriteTransactions {
  private queue: PendingWrite[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly maxWrites = MAX_WRITES_PER_COMMIT,
  ) {}

  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.maxWrites));
    } finally {
      this.scheduled = false;
    }
  }

  private async commit(batch: PendingWrite[]): Promise<void> {
    const succeeded: Array<{ write: PendingWrite; value: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const write of batch) {
          await sql`savepoint grouped_write`.execute(trx);
          let value: unknown;
          try {
            value = await write.work(trx);
          } catch (err) {
            // If this fails too, the transaction is gone: the catch below tells everyone.
            await sql`rollback to grouped_write`.execute(trx);
            await sql`release grouped_write`.execute(trx);
            write.reject(err);
            continue;
          }
          await sql`release grouped_write`.execute(trx);
          succeeded.push({ write, value });
        }
      });
    } catch (err) {
      // Writes already told of their own failure ignore this.
      for (const write of batch) write.reject(err);
      return;
    }
    for (const { write, value } of succeeded) write.resolve(value);
  }
}
