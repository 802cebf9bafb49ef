// Write transactions of the hot paths (creating a post, taking an idempotency key) run through
// here. On SQLite a commit writes every changed page to the WAL with a pair of system calls per
// page, and was the largest single cost of a create (docs/performance.md); so the writes that
// reach this point in the same turn of the event loop share one transaction and one commit
// (group commit). On PostgreSQL each write is its own transaction: the server already groups
// concurrent commits.
import { sql } from 'kysely';
import type { Db, Engine } from './database.js';

/**
 * Queues a statement of a write to run in the same transaction after every write that shares
 * it, just before the commit, and only if the write that queued it succeeded. SQLite's FTS5
 * writes the terms it holds in memory as a new segment of its index at every savepoint and
 * release; a term insert queued here, outside the writes' savepoints, joins the others of the
 * group in one segment written at the commit.
 */
export type BeforeCommit = (statement: QueuedStatement) => void;

/** A statement queued by a write for just before its transaction's commit. */
export type QueuedStatement = (trx: Db) => Promise<unknown>;

export interface WriteTransactions {
  /**
   * Runs `work` in a transaction and resolves with its result once that transaction has
   * committed. `work` must only use `trx` (and `beforeCommit`) and must not wait for anything
   * but its statements: other writes may share the transaction and wait for it to end.
   * If `work` throws, its changes are undone, what it queued is dropped and the error is passed
   * on; other writes are not affected.
   */
  run<T>(work: (trx: Db, beforeCommit: BeforeCommit) => Promise<T>): Promise<T>;
}

/** Most writes in one group commit, so that a burst never holds the database for long. */
export const MAX_WRITES_PER_COMMIT = 64;

/** Group commit on SQLite, a transaction per write on PostgreSQL. */
export function writeTransactions(db: Db, engine: Engine): WriteTransactions {
  return engine === 'sqlite' ? new GroupCommit(db) : transactionPerWrite(db);
}

/** Each write in a transaction of its own. */
export function transactionPerWrite(db: Db): WriteTransactions {
  return { run: (work) => db.transaction().execute((trx) => runThenQueued(trx, work)) };
}

/** Each write's statements on their own, no transaction (a write of one statement). */
export function statementsOnTheirOwn(db: Db): WriteTransactions {
  return { run: (work) => runThenQueued(db, work) };
}

async function runThenQueued<T>(trx: Db, work: (trx: Db, beforeCommit: BeforeCommit) => Promise<T>): Promise<T> {
  const queued: QueuedStatement[] = [];
  const value = await work(trx, (statement) => queued.push(statement));
  for (const statement of queued) await statement(trx);
  return value;
}

interface PendingWrite {
  work: (trx: Db, beforeCommit: BeforeCommit) => Promise<unknown>;
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

  run<T>(work: (trx: Db, beforeCommit: BeforeCommit) => Promise<T>): Promise<T> {
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
        const beforeCommit: QueuedStatement[] = [];
        for (const write of batch) {
          await sql`savepoint grouped_write`.execute(trx);
          const queued: QueuedStatement[] = [];
          let value: unknown;
          try {
            value = await write.work(trx, (statement) => queued.push(statement));
          } catch (err) {
            // If this fails too, the transaction is gone: the catch below tells everyone.
            await sql`rollback to grouped_write`.execute(trx);
            await sql`release grouped_write`.execute(trx);
            write.reject(err);
            continue;
          }
          await sql`release grouped_write`.execute(trx);
          beforeCommit.push(...queued);
          succeeded.push({ write, value });
        }
        // If one fails, the transaction is undone and the catch below tells every write.
        for (const statement of beforeCommit) await statement(trx);
      });
    } catch (err) {
      // Writes already told of their own failure ignore this.
      for (const write of batch) write.reject(err);
      return;
    }
    for (const { write, value } of succeeded) write.resolve(value);
  }
}
