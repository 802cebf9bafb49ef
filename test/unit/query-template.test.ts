// Query templates: built and compiled once per shape, then run with named arguments.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { queryTemplate, writeTemplate } from '../../src/db/query-template.js';

describe('query templates', () => {
  let dir: string;
  let handle: DatabaseHandle;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'query-template-'));
    const file = join(dir, 'blog.db');
    handle = openDatabase({ engine: 'sqlite', url: `sqlite:${file}`, file });
    await migrateToLatest(handle);
  });
  after(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts each named argument where its placeholder stands, whatever the order of the object', async () => {
    const insert = writeTemplate((db, $: { name: string; value: string }) =>
      db.insertInto('service_settings').values({ value: $.value, name: $.name }),
    );
    assert.equal(await insert(handle.db, { name: 'a', value: 'first' }), 1);
    assert.equal(await insert(handle.db, { value: 'second', name: 'b' }), 1);
    const rows = await handle.db
      .selectFrom('service_settings')
      .select(['name', 'value'])
      .where('name', 'in', ['a', 'b'])
      .orderBy('name')
      .execute();
    assert.deepEqual(rows, [
      { name: 'a', value: 'first' },
      { name: 'b', value: 'second' },
    ]);
  });

  it('builds once per shape; a list argument is given element by element', async () => {
    let builds = 0;
    const byNames = queryTemplate((db, $: { names: string[] }, shape) => {
      builds++;
      return db
        .selectFrom('service_settings')
        .select('value')
        .where(
          'name',
          'in',
          Array.from({ length: shape }, (_, i) => $.names[i]),
        )
        .orderBy('value');
    });
    assert.deepEqual(await byNames(handle.db, { names: ['a'] }, 1), [{ value: 'first' }]);
    assert.deepEqual(await byNames(handle.db, { names: ['b'] }, 1), [{ value: 'second' }]);
    assert.deepEqual(await byNames(handle.db, { names: ['b', 'a'] }, 2), [{ value: 'first' }, { value: 'second' }]);
    assert.equal(builds, 2, 'one build for length 1, one for length 2');
  });

  it('runs inside a transaction given instead of the database', async () => {
    const update = writeTemplate((db, $: { name: string; value: string }) =>
      db.updateTable('service_settings').set({ value: $.value }).where('name', '=', $.name),
    );
    await assert.rejects(
      handle.db.transaction().execute(async (trx) => {
        assert.equal(await update(trx, { name: 'a', value: 'changed' }), 1);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const row = await handle.db
      .selectFrom('service_settings')
      .select('value')
      .where('name', '=', 'a')
      .executeTakeFirst();
    assert.equal(row?.value, 'first');
  });
});
