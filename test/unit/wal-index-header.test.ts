// The WAL index's header tells whether another connection has committed: unchanged while
// nobody commits, changed (once) by every commit of another connection or process, and the
// data version read through it matches PRAGMA data_version at every step.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import { WalIndexHeader } from '../../src/db/wal-index-header.js';
import { StatementCache } from '../../src/db/sqlite-statements.js';

describe('WAL index header', () => {
  let dir: string;
  let file: string;
  let reader: BetterSqlite3.Database;
  let writer: BetterSqlite3.Database;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wal-index-'));
    file = join(dir, 'test.db');
    writer = new BetterSqlite3(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE t (x INTEGER)');
    reader = new BetterSqlite3(file);
  });
  after(() => {
    reader.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is unchanged until another connection commits, then changed once', () => {
    const header = WalIndexHeader.open(file)!;
    try {
      assert.equal(header.unchanged(), false, 'the first look knows nothing yet');
      assert.equal(header.unchanged(), true);
      assert.equal(header.unchanged(), true);
      writer.prepare('INSERT INTO t VALUES (1)').run();
      assert.equal(header.unchanged(), false);
      assert.equal(header.unchanged(), true);
      // A transaction that has not committed yet changes nothing a reader can see.
      writer.exec('BEGIN');
      writer.prepare('INSERT INTO t VALUES (2)').run();
      assert.equal(header.unchanged(), true);
      writer.exec('COMMIT');
      assert.equal(header.unchanged(), false);
      // A checkpoint that restarts the WAL, then a commit into the restarted WAL.
      writer.pragma('wal_checkpoint(RESTART)');
      header.unchanged();
      writer.prepare('INSERT INTO t VALUES (3)').run();
      assert.equal(header.unchanged(), false);
      header.forget();
      assert.equal(header.unchanged(), false, 'after forget() the next look is a change');
    } finally {
      header.close();
    }
  });

  it('has no header for a database in memory or not in WAL mode', () => {
    assert.equal(WalIndexHeader.open(':memory:'), null);
    assert.equal(WalIndexHeader.open(join(dir, 'none.db')), null);
  });

  it('the statement cache’s data version follows PRAGMA data_version through commits of another connection and of another process', () => {
    const statements = new StatementCache(reader);
    const direct = reader.prepare('PRAGMA data_version').pluck();
    const first = statements.readDataVersion();
    assert.equal(first, direct.get());
    assert.equal(statements.readDataVersion(), first);
    writer.prepare('INSERT INTO t VALUES (4)').run();
    const second = statements.readDataVersion();
    assert.notEqual(second, first);
    assert.equal(second, direct.get());
    // Another process commits.
    assert.equal(commitInAnotherProcess(file), 0);
    const third = statements.readDataVersion();
    assert.notEqual(third, second);
    assert.equal(third, direct.get());
    assert.equal(statements.readDataVersion(), third);
  });
});

function commitInAnotherProcess(file: string): number | null {
  const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)}); db.prepare('INSERT INTO t VALUES (5)').run(); db.close();`;
  return spawnSync(process.execPath, ['-e', script], { stdio: 'inherit' }).status;
}
