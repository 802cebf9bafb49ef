// Test databases are copies of a migrated template: each must be fully migrated and its own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { pendingMigrations } from '../../src/db/migrate.js';
import { describeEachEngine, POSTGRES_ADMIN_URL } from '../helpers/engines.js';
import { postgresTemplate } from '../helpers/database-template.js';

describeEachEngine('test databases from the migrated template', (target) => {
  it('start with every migration run, and each is a database of its own', async () => {
    const [one, two] = [await target.create(), await target.create()];
    const [a, b] = [openDatabase(one.database), openDatabase(two.database)];
    try {
      assert.deepEqual(await pendingMigrations(a), []);
      assert.deepEqual(await pendingMigrations(b), []);
      await a.db.insertInto('service_settings').values({ name: 'only_in_one', value: 'x' }).execute();
      assert.equal(
        (await b.db.selectFrom('service_settings').select('name').where('name', '=', 'only_in_one').execute()).length,
        0,
      );
    } finally {
      await a.close();
      await b.close();
      await one.drop();
      await two.drop();
    }
  });

  if (target.name === 'postgres') {
    it('the template takes no connections, so cloning it never finds it busy', async () => {
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      try {
        const { rows } = await admin.query('SELECT datallowconn FROM pg_database WHERE datname = $1', [
          await postgresTemplate(),
        ]);
        assert.deepEqual(rows, [{ datallowconn: false }]);
      } finally {
        await admin.end();
      }
    });
  }
});
