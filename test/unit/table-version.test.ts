// SQLite's in-process table versions behind the caches: which writes count as changes, from where.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle, type Db, type TableVersion } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

describe('SQLite table version', () => {
  let dir: string;
  let one: DatabaseHandle;
  let two: DatabaseHandle;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'table-version-'));
    const file = join(dir, 'blog.db');
    one = openDatabase({ engine: 'sqlite', url: `sqlite:${file}`, file });
    await migrateToLatest(one);
    two = openDatabase({ engine: 'sqlite', url: `sqlite:${file}`, file });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Outside a transaction a table version (of connection `one`) always tells: a number. */
  const versionOf = (version: TableVersion) => {
    const value = version.at(one.dataVersion());
    assert.equal(typeof value, 'number');
    return value;
  };
  const touchStores = (db: Db) => sql`UPDATE stores SET updated_at = updated_at`.execute(db);
  const addSetting = (db: Db, name: string) => db.insertInto('service_settings').values({ name, value: 'x' }).execute();

  it('keeps its version through reads and writes to other tables', async () => {
    const version = one.tableVersion(['api_keys', 'stores'])!;
    const start = versionOf(version);
    await one.db.selectFrom('stores').selectAll().execute();
    await one.db.selectFrom('api_keys').selectAll().execute();
    await addSetting(one.db, 'own-other-table');
    assert.equal(versionOf(version), start);
  });

  it('changes on a write to one of its tables through its own connection', async () => {
    const version = one.tableVersion(['api_keys', 'stores'])!;
    const start = versionOf(version);
    await touchStores(one.db);
    assert.notEqual(versionOf(version), start);
  });

  it('changes when another connection commits, whatever it wrote', async () => {
    const version = one.tableVersion(['api_keys', 'stores'])!;
    const start = versionOf(version);
    assert.equal(versionOf(version), start);
    await addSetting(two.db, 'other-connection');
    assert.notEqual(versionOf(version), start);
  });

  it('counts a write that names one of its tables even when it is rolled back', async () => {
    const version = one.tableVersion(['stores'])!;
    const start = versionOf(version);
    await assert.rejects(
      one.db.transaction().execute(async (trx) => {
        await touchStores(trx);
        throw new Error('roll back');
      }),
    );
    assert.notEqual(versionOf(version), start);
  });

  it('cannot tell while a transaction is open on its connection, and tells again after', async () => {
    const version = one.tableVersion(['api_keys', 'stores'])!;
    const before = versionOf(version);
    await one.db.transaction().execute(async (trx) => {
      await trx.selectFrom('stores').select('id').execute();
      // The transaction's snapshot hides this commit from data_version until it ends.
      await addSetting(two.db, 'during-transaction');
      assert.equal(version.at(one.dataVersion()), null);
    });
    assert.notEqual(versionOf(version), before);
  });
});
