// The cache topics (src/cache/topics.ts) against a migrated database. The TypeScript and the
// Redis scripts derive from the list, but the triggers live in released migrations, which never
// change: so they are checked here. PostgreSQL: every table of every topic has its trigger,
// every trigger bumps a topic the list knows, cache_versions has exactly the topics' columns, and
// cache_version_bump() grows exactly the column of the topic it is given. SQLite (versions from
// the statements' text): no trigger writes a topic's table from a table outside that topic.
// With Redis, a store's hash holds the topics' fields, and the stale-copy drop keeps its two modes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describeEachEngine, postgresEngine, type EngineTarget } from '../helpers/engines.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import {
  REDIS_HASH_FIELDS,
  TOPIC_NAMES,
  TOPICS,
  VERSION_COLUMNS,
  versionColumn,
  type Topic,
} from '../../src/cache/topics.js';

/** table → the topics a write to it must bump, as the list says. */
function expectedTopicsOfTables(): Map<string, Set<Topic>> {
  const expected = new Map<string, Set<Topic>>();
  for (const topic of TOPICS)
    for (const table of topic.tables) expected.set(table, (expected.get(table) ?? new Set()).add(topic.name));
  return expected;
}

const sorted = (map: Map<string, Set<string>>) =>
  Object.fromEntries(
    [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([table, topics]) => [table, [...topics].sort()]),
  );

describeEachEngine('cache topics match the migrated schema', (target: EngineTarget) => {
  let drop: () => Promise<void>;
  let url: string;
  let file: string | undefined;
  before(async () => {
    const created = await target.create();
    drop = created.drop;
    url = created.database.url;
    file = created.database.engine === 'sqlite' ? created.database.file : undefined;
  });
  after(async () => {
    await drop?.();
  });

  if (target.name === 'postgres') {
    const withClient = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await fn(client);
      } finally {
        await client.end();
      }
    };

    it('every table of every topic has its trigger, and every trigger bumps a topic the list knows', async () => {
      const { rows } = await withClient((client) =>
        client.query<{
          table: string;
          name: string;
          args: Buffer;
          type: number;
          deferrable: boolean;
          deferred: boolean;
          enabled: string;
        }>(`
          SELECT c.relname AS table, t.tgname AS name, t.tgargs AS args, t.tgtype AS type,
                 t.tgdeferrable AS deferrable, t.tginitdeferred AS deferred, t.tgenabled AS enabled
            FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
           WHERE NOT t.tgisinternal AND p.proname = 'cache_version_bump'`),
      );
      const actual = new Map<string, Set<string>>();
      for (const row of rows) {
        const args = row.args.toString('utf8').split('\0').slice(0, -1);
        assert.equal(args.length, 1, `${row.name}: one argument, the topic`);
        const [topic] = args;
        assert.ok(
          topic === 'all' || (TOPIC_NAMES as readonly string[]).includes(topic!),
          `${row.name} bumps '${topic}', a topic src/cache/topics.ts does not list`,
        );
        // FOR EACH ROW (1), AFTER (not 2 nor 64), on INSERT (4), DELETE (8) and UPDATE (16); deferred to the commit.
        assert.equal(
          row.type & (1 | 2 | 4 | 8 | 16 | 64),
          1 | 4 | 8 | 16,
          `${row.name}: AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW`,
        );
        assert.deepEqual(
          [row.deferrable, row.deferred, row.enabled],
          [true, true, 'O'],
          `${row.name}: enabled, DEFERRABLE INITIALLY DEFERRED`,
        );
        const topics = actual.get(row.table) ?? new Set<string>();
        for (const name of topic === 'all' ? TOPIC_NAMES : [topic!]) topics.add(name);
        actual.set(row.table, topics);
      }
      assert.deepEqual(sorted(actual), sorted(expectedTopicsOfTables()));
    });

    it('cache_versions has a version column for each topic and for nothing else', async () => {
      const { rows } = await withClient((client) =>
        client.query<{ column: string }>(
          `SELECT column_name AS column FROM information_schema.columns WHERE table_name = 'cache_versions' AND column_name LIKE '%\\_version' ORDER BY column_name`,
        ),
      );
      assert.deepEqual(
        rows.map((row) => row.column),
        [...VERSION_COLUMNS].sort(),
      );
    });

    it("cache_version_bump('<topic>') grows that topic's column and no other; 'all' grows every one", async () => {
      const storeId = 987_654_321;
      const changed = await withClient(async (client) => {
        const read = async () =>
          (
            await client.query(`SELECT ${VERSION_COLUMNS.join(', ')} FROM cache_versions WHERE store_id = $1`, [
              storeId,
            ])
          ).rows[0] as Record<string, string>;
        await client.query('CREATE TABLE topic_probe (store_id bigint)');
        const result: Record<string, string[]> = {};
        for (const argument of [...TOPIC_NAMES, 'all']) {
          await client.query(
            `CREATE CONSTRAINT TRIGGER topic_probe_bump AFTER INSERT ON topic_probe DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cache_version_bump('${argument}')`,
          );
          await client.query('INSERT INTO topic_probe VALUES ($1)', [storeId]); // the store's first change creates its row
          const before = await read();
          await client.query('INSERT INTO topic_probe VALUES ($1)', [storeId]);
          const now = await read();
          result[argument] = VERSION_COLUMNS.filter((column) => BigInt(now[column]!) > BigInt(before[column]!));
          await client.query('DROP TRIGGER topic_probe_bump ON topic_probe');
        }
        await client.query('DROP TABLE topic_probe');
        return result;
      });
      const expected = Object.fromEntries([
        ...TOPICS.map((topic) => [topic.name, [`${topic.name}_version`]]),
        ['all', [...VERSION_COLUMNS]],
      ]);
      assert.deepEqual(changed, expected);
    });
  }

  if (target.name === 'sqlite') {
    it("every table of every topic exists, and no trigger writes a topic's table from a table outside that topic", () => {
      const sqlite = new Database(file!, { readonly: true });
      try {
        const tables = new Set(
          (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
            (row) => row.name,
          ),
        );
        for (const topic of TOPICS)
          for (const table of topic.tables) assert.ok(tables.has(table), `${topic.name}: no table ${table}`);
        // A statement counts as a write to the tables its text names (src/db/table-version.ts): a
        // trigger writing another topic's table would change it unseen by this process.
        const triggers = sqlite
          .prepare("SELECT name, tbl_name AS table_name, sql FROM sqlite_master WHERE type = 'trigger'")
          .all() as Array<{ name: string; table_name: string; sql: string }>;
        assert.ok(triggers.length > 0, 'the migrated database has triggers to look at');
        const unseen: string[] = [];
        for (const trigger of triggers) {
          const body = trigger.sql.slice(trigger.sql.search(/\bBEGIN\b/i));
          const written = [
            ...body.matchAll(
              /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM|REPLACE\s+INTO)\s+["`]?(\w+)/gi,
            ),
          ].map((m) => m[1]!.toLowerCase());
          for (const topic of TOPICS) {
            const tables = topic.tables as readonly string[];
            for (const table of written)
              if (tables.includes(table) && !tables.includes(trigger.table_name))
                unseen.push(`${trigger.name} writes ${table} (${topic.name}) from ${trigger.table_name}`);
          }
        }
        assert.deepEqual(unseen, []);
      } finally {
        sqlite.close();
      }
    });
  }
});

describe('cache topics in Redis [postgres]', { skip: postgresEngine.skip ?? (await redisSkipReason()) }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgresEngine, { REDIS_URL: TEST_REDIS_URL });
  });
  after(async () => t?.close());

  const me = async (key: string) =>
    assert.equal((await t.request({ method: 'GET', url: '/v1/me', key })).statusCode, 200);
  const row = async (storeId: number) =>
    (await t.ctx.db
      .selectFrom('cache_versions')
      .select(VERSION_COLUMNS)
      .where('store_id', '=', storeId)
      .executeTakeFirstOrThrow()) as Record<string, number | string>;
  /** The store's hash once the fills of earlier requests (not awaited by them) are done. */
  const hash = async (storeId: number) => {
    const client = t.ctx.traffic.redis!.client;
    await client.ping();
    return client.hgetall(t.ctx.sharedVersions!.keyOf(storeId));
  };
  /** A copy equal to the store's row, with `content` moved by `delta`. */
  const copyOf = async (storeId: number, delta: number) => {
    const versions = await row(storeId);
    return Object.fromEntries(
      TOPICS.map((topic) => [
        topic.name,
        String(Number(versions[versionColumn(topic.name)]) + (topic.name === 'content' ? delta : 0)),
      ]),
    );
  };
  const put = (storeId: number, copy: Record<string, string>) =>
    t.ctx.traffic.redis!.client.hset(t.ctx.sharedVersions!.keyOf(storeId), copy);

  it("a store's hash holds one field per topic, equal to its row's column, and gen", async () => {
    const shared = t.ctx.sharedVersions!;
    await shared.reconcile();
    const { store, key } = await t.tenant();
    await shared.drop([store.id]); // a write's drop: gen is there from then on
    await me(key);
    await me(key);
    const fields = await hash(store.id);
    assert.deepEqual(Object.keys(fields).sort(), [...REDIS_HASH_FIELDS].sort());
    const { gen, ...copy } = fields;
    assert.ok(gen);
    assert.deepEqual(copy, await copyOf(store.id, 0));
  });

  it('the reconcile drops a copy behind its row; after Redis came back, any copy unequal to it; never an equal one', async () => {
    const shared = t.ctx.sharedVersions!;
    await shared.reconcile();
    const { store, key } = await t.tenant();
    const other = await t.tenant();
    await shared.drop([store.id]);
    for (const k of [key, key, other.key, other.key]) await me(k);
    // A change committed without a drop (a writer that died): the look since the last horizon finds the row.
    await t.ctx.stores.update(store.handle, { name: 'Changed once' });
    const ahead = await copyOf(store.id, 1);
    await put(store.id, ahead);
    await shared.reconcile();
    const { gen, ...kept } = await hash(store.id);
    assert.deepEqual(kept, ahead, 'a copy ahead of its row is not behind it');
    await t.ctx.stores.update(store.handle, { name: 'Changed twice' });
    await shared.reconcile();
    assert.deepEqual(await hash(store.id), { gen: String(Number(gen) + 1) }, 'a copy behind its row is dropped');
    // After Redis came back: every copy is checked against its row.
    await put(store.id, await copyOf(store.id, 1));
    const equal = await hash(other.store.id);
    shared.distrust();
    await shared.reconcile();
    assert.deepEqual(await hash(store.id), { gen: String(Number(gen) + 2) }, 'a copy unequal to its row is dropped');
    assert.deepEqual(await hash(other.store.id), equal, 'a copy equal to its row stays');
  });
});
