// Group commit on SQLite: writes that reach it in the same turn share one transaction, each is
// undone alone when it fails, and nobody hears of a write before it is committed.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { GroupCommit } from '../../src/db/group-commit.js';
import type { Db } from '../../src/db/database.js';

describe('group commit (SQLite)', () => {
  let dir: string;
  let sqlite: BetterSqlite3.Database;
  let observer: BetterSqlite3.Database;
  let db: Db;
  let commits = 0;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const file = join(dir, 'test.db');
    sqlite = new BetterSqlite3(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    sqlite.exec(
      'CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    // Every statement the driver runs is prepared here, COMMIT included: that is how commits are counted.
    const counting = {
      prepare(text: string) {
        if (/^\s*commit\b/i.test(text)) commits++;
        return sqlite.prepare(text);
      },
      close() {
        sqlite.close();
      },
    };
    db = new Kysely<any>({ dialect: new SqliteDialect({ database: counting }) }) as unknown as Db;
    observer = new BetterSqlite3(file, { readonly: true });
  });
  after(async () => {
    observer.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sqlite.exec('DELETE FROM item');
    commits = 0;
  });

  const insert =
    (name: string, parentId: number | null = null) =>
    (trx: Db) =>
      sql`INSERT INTO item (name, parent_id) VALUES (${name}, ${parentId})`.execute(trx).then(() => name);
  const committedNames = () => observer.prepare('SELECT name FROM item ORDER BY name').pluck().all() as string[];

  it('commits the writes of one turn together, each getting its own result', async () => {
    const group = new GroupCommit(db);
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const results = await Promise.all(names.map((n) => group.run(insert(n))));
    assert.deepEqual(results, names);
    assert.equal(commits, 1);
    assert.deepEqual(committedNames(), names);
  });

  it('tells a write of its result only once the transaction has committed', async () => {
    const group = new GroupCommit(db);
    const seenAtResolution: string[][] = [];
    await Promise.all(
      ['x', 'y', 'z'].map((n) => group.run(insert(n)).then(() => seenAtResolution.push(committedNames()))),
    );
    // Another connection already saw all three when the first result was released.
    assert.deepEqual(seenAtResolution, [
      ['x', 'y', 'z'],
      ['x', 'y', 'z'],
      ['x', 'y', 'z'],
    ]);
  });

  it('undoes only the write that failed and tells it its own error; the others commit', async () => {
    const group = new GroupCommit(db);
    const outcomes = await Promise.allSettled([
      group.run(insert('one')),
      group.run(async (trx) => {
        await insert('half-done')(trx);
        await insert('one')(trx); // unique violation: the whole write is undone, 'half-done' too
      }),
      group.run(insert('two')),
    ]);
    assert.equal(outcomes[0].status, 'fulfilled');
    assert.equal(outcomes[2].status, 'fulfilled');
    assert.equal(outcomes[1].status, 'rejected');
    assert.equal((outcomes[1] as PromiseRejectedResult).reason.code, 'SQLITE_CONSTRAINT_UNIQUE');
    assert.equal(commits, 1);
    assert.deepEqual(committedNames(), ['one', 'two']);
  });

  it('when the commit itself fails, tells every write of the transaction and keeps none of their writes', async () => {
    const group = new GroupCommit(db);
    // A deferred foreign key is only checked by COMMIT, so the transaction fails as a whole.
    const outcomes = await Promise.allSettled([
      group.run(insert('fine')),
      group.run(insert('orphan', 999)),
      group.run(insert('also-fine')),
    ]);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.equal((outcome as PromiseRejectedResult).reason.code, 'SQLITE_CONSTRAINT_FOREIGNKEY');
    }
    assert.deepEqual(committedNames(), []);
    // The next turn starts afresh.
    assert.equal(await group.run(insert('after')), 'after');
    assert.deepEqual(committedNames(), ['after']);
  });

  it('splits a burst larger than its limit into several commits, in arrival order', async () => {
    const group = new GroupCommit(db, 3);
    const names = Array.from({ length: 7 }, (_, i) => `n${i}`);
    const order: string[] = [];
    await Promise.all(names.map((n) => group.run(insert(n)).then((v) => order.push(v))));
    assert.equal(commits, 3);
    assert.deepEqual(order, names);
    assert.deepEqual(committedNames(), names);
  });

  it('a write arriving while a transaction runs goes into the next one', async () => {
    const group = new GroupCommit(db);
    let late: Promise<string> | undefined;
    await group.run(async (trx) => {
      late = group.run(insert('late'));
      return insert('early')(trx);
    });
    assert.deepEqual(committedNames(), ['early']);
    assert.equal(await late, 'late');
    assert.equal(commits, 2);
  });

  it('runs what a write queued before the commit after every write of the group, in the same transaction, and drops what a failed write queued', async () => {
    const group = new GroupCommit(db);
    const order: string[] = [];
    const queuing = (name: string, fail = false) =>
      group.run(async (trx, beforeCommit) => {
        await insert(name)(trx);
        order.push(name);
        beforeCommit(async (t) => {
          order.push(`${name}:queued`);
          await insert(`${name}-late`)(t);
        });
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const outcomes = await Promise.allSettled([queuing('p'), queuing('q', true), queuing('r')]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(order, ['p', 'q', 'r', 'p:queued', 'r:queued']);
    assert.equal(commits, 1);
    assert.deepEqual(committedNames(), ['p', 'p-late', 'r', 'r-late']);
  });

  it('when a queued statement fails, tells every write of the transaction and keeps none of their writes', async () => {
    const group = new GroupCommit(db);
    const outcomes = await Promise.allSettled([
      group.run(insert('kept-until-the-end')),
      group.run(async (trx, beforeCommit) => {
        beforeCommit(insert('kept-until-the-end')); // a unique violation, outside any savepoint
        return insert('queues-a-clash')(trx);
      }),
    ]);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.equal((outcome as PromiseRejectedResult).reason.code, 'SQLITE_CONSTRAINT_UNIQUE');
    }
    assert.deepEqual(committedNames(), []);
  });
});
