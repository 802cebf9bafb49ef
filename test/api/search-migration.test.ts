// Migration 0009-post-search gives posts written before it their search text: a database at
// 0005 with posts, migrated by the server's start, finds them through GET /v1/blog/posts?q=.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, type Migration } from 'kysely';
import { describeEachEngine } from '../helpers/engines.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { initialMigration } from '../../src/db/migrations/0001-initial.js';
import { housekeepingMigration } from '../../src/db/migrations/0002-housekeeping.js';
import { webhooksMigration } from '../../src/db/migrations/0003-webhooks.js';
import { cacheVersionsMigration } from '../../src/db/migrations/0005-cache-versions.js';
import { ManualClock } from '../../src/lib/clock.js';
import { StoreService } from '../../src/modules/stores/index.js';
import { START_TIME } from '../helpers/test-app.js';

describeEachEngine('migration 0009-post-search backfills existing posts', (target) => {
  let ctx: AppContext;
  let drop: () => Promise<void>;
  let key: string;
  const ids: number[] = [];
  before(async () => {
    const created = await target.create({ empty: true });
    drop = created.drop;
    const handle = openDatabase(created.database);
    const engine = handle.engine;
    const upTo0005: Record<string, Migration> = {
      '0001-initial': initialMigration(engine),
      '0002-housekeeping': housekeepingMigration(),
      '0003-webhooks': webhooksMigration(engine),
      '0005-cache-versions': cacheVersionsMigration(engine),
    };
    const { error } = await new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => upTo0005 },
    }).migrateToLatest();
    assert.equal(error, undefined);
    const clock = new ManualClock(START_TIME);
    const store = await new StoreService(handle.db, clock).create({ handle: 'before-search', name: 'Before search' });
    // Posts as the previous version stored them (more than one backfill batch of 500).
    const at = Date.parse(START_TIME);
    const rows = Array.from({ length: 620 }, (_, n) => ({
      store_id: store.id,
      title: n === 7 ? '舊文章：巧克力蛋糕' : `Old post ${n}`,
      summary: n === 600 ? 'Summary with Marzipan' : null,
      body_html: n === 3 ? '<p>Old <em>straw</em>berry tart</p>' : `<p>Body ${n}</p>`,
      warnings: '[]',
      cover_image_id: null,
      default_category_id: null,
      published_at: null,
      view_count: 0,
      created_at: at + n,
      updated_at: at + n,
    }));
    for (let i = 0; i < rows.length; i += 200)
      ids.push(
        ...(
          await handle.db
            .insertInto('posts')
            .values(rows.slice(i, i + 200))
            .returning('id')
            .execute()
        ).map((r) => r.id),
      );
    // The server's start migrates the rest.
    ctx = await createContext(
      { ...loadConfig({ PUBLIC_BASE_URL: 'http://blog.test' }), database: created.database },
      { clock, database: handle },
    );
    key = (await ctx.keys.issue({ storeId: store.id, application: 'migration-test', scopes: ['read_blog'] })).key;
  });
  after(async () => {
    await ctx?.close();
    await drop?.();
  });

  it('finds posts written before the migration by title, summary and body text', async () => {
    const app = await buildApp(ctx, { logLevel: 'silent' });
    try {
      const search = async (q: string) => {
        const res = await app.inject({
          method: 'GET',
          url: `/v1/blog/posts?q=${encodeURIComponent(q)}`,
          headers: { authorization: `Bearer ${key}` },
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().data.map((p: { id: number }) => p.id);
      };
      assert.deepEqual(await search('蛋糕'), [ids[7]]);
      assert.deepEqual(await search('strawberry'), [ids[3]]);
      assert.deepEqual(await search('marzipan'), [ids[600]], 'posts of the second batch too');
      assert.deepEqual(await search('old post 619'), [ids[619]]);
    } finally {
      await app.close();
    }
  });
});
