// The SQLite table watch behind the kept keys: which writes count as changes, from where.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle, type Db, type TableWatch } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

describe('SQLite table watch', () => {
  let dir: string;
  let one: DatabaseHandle;
  let two: DatabaseHandle;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'table-watch-'));
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

  /** Outside a transaction a watch always tells: a number. */
  const stampOf = (watch: TableWatch) => {
    const stamp = watch.stamp();
    assert.equal(typeof stamp, 'number');
    return stamp;
  };
  const touchStores = (db: Db) => sql`UPDATE stores SET updated_at = updated_at`.execute(db);
  const addSetting = (db: Db, name: string) => db.insertInto('service_settings').values({ name, value: 'x' }).execute();

  it('keeps its stamp through reads and writes to other tables', async () => {
    const watch = one.watchTables(['api_keys', 'stores'])!;
    const stamp = stampOf(watch);
    await one.db.selectFrom('stores').selectAll().execute();
    await one.db.selectFrom('api_keys').selectAll().execute();
    await addSetting(one.db, 'watch-own-unwatched');
    assert.equal(stampOf(watch), stamp);
  });

  it('changes on a write to a watched table through its own connection', async () => {
    const watch = one.watchTables(['api_keys', 'stores'])!;
    const stamp = stampOf(watch);
    await touchStores(one.db);
    assert.notEqual(stampOf(watch), stamp);
  });

  it('changes when another connection commits, whatever it wrote', async () => {
    const watch = one.watchTables(['api_keys', 'stores'])!;
    const stamp = stampOf(watch);
    assert.equal(stampOf(watch), stamp);
    await addSetting(two.db, 'watch-other-connection');
    assert.notEqual(stampOf(watch), stamp);
  });

  it('counts a write that names a watched table even when it is rolled back', async () => {
    const watch = one.watchTables(['stores'])!;
    const stamp = stampOf(watch);
    await assert.rejects(
      one.db.transaction().execute(async (trx) => {
        await touchStores(trx);
        throw new Error('roll back');
      }),
    );
    assert.notEqual(stampOf(watch), stamp);
  });

  it('cannot tell while a transaction is open on its connection, and tells again after', async () => {
    const watch = one.watchTables(['api_keys', 'stores'])!;
    const before = stampOf(watch);
    await one.db.transaction().execute(async (trx) => {
      await trx.selectFrom('stores').select('id').execute();
      // The transaction's snapshot hides this commit from data_version until it ends.
      await addSetting(two.db, 'watch-during-transaction');
      assert.equal(watch.stamp(), null);
    });
    assert.notEqual(stampOf(watch), before);
  });
});
