// Write transactions of the hot paths (creating a post, taking an idempotency key) run through
// here. On SQLite a commit writes every changed page to the WAL with a pair of system calls per
// page, and was the largest single cost of a create (docs/performance.md); so the units that
// reach this point in the same turn of the event loop share one transaction and one commit.
// On PostgreSQL each unit is its own transaction: the server already groups concurrent commits.
import { sql } from 'kysely';
import type { Db, Engine } from './database.js';

export interface WriteUnits {
  /**
   * Runs `work` in a transaction and resolves with its result once that transaction has
   * committed. `work` must only use `trx` and must not wait for anything but its statements:
   * other units may share the transaction and wait for it to end.
   * If `work` throws, its writes are undone and the error is passed on; other units are not
   * affected.
   */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T>;
}

/** Most units in one transaction, so that a burst never holds the database for long. */
export const MAX_UNITS_PER_COMMIT = 64;

export function writeUnits(db: Db, engine: Engine): WriteUnits {
  return engine === 'sqlite' ? new GroupCommit(db) : transactionPerUnit(db);
}

/** Each unit in a transaction of its own. */
export function transactionPerUnit(db: Db): WriteUnits {
  return { run: (work) => db.transaction().execute(work) };
}

interface Unit {
  work: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Units wait for the next turn of the event loop (setImmediate), so every request that reached
 * its write in this turn joins; then they run one after the other, each inside a savepoint, and
 * commit together. A unit's result is released only after the commit, so no caller is told of a
 * write that is not committed. A unit that fails is rolled back to its savepoint and told at
 * once; if the transaction itself fails (the commit, or an error that ends the transaction),
 * every unit in it that had not failed on its own is told of that error.
 */
export class GroupCommit implements WriteUnits {
  private queue: Unit[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly maxUnits = MAX_UNITS_PER_COMMIT,
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
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.maxUnits));
    } finally {
      this.scheduled = false;
    }
  }

  private async commit(batch: Unit[]): Promise<void> {
    const succeeded: Array<{ unit: Unit; value: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          await sql`savepoint unit`.execute(trx);
          let value: unknown;
          try {
            value = await unit.work(trx);
          } catch (err) {
            // If this fails too, the transaction is gone: the catch below tells everyone.
            await sql`rollback to unit`.execute(trx);
            await sql`release unit`.execute(trx);
            unit.reject(err);
            continue;
          }
          await sql`release unit`.execute(trx);
          succeeded.push({ unit, value });
        }
      });
    } catch (err) {
      // Units already told of their own failure ignore this.
      for (const unit of batch) unit.reject(err);
      return;
    }
    for (const { unit, value } of succeeded) unit.resolve(value);
  }
}
