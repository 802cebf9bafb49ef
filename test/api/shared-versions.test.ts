// PostgreSQL with Redis: the stores' cache versions kept in Redis (src/cache/shared-versions.ts).
// A writer drops its store's copy after its commit; these tests cover what guards the copies when
// that drop never happens (a writer that died in between) and when a reader's copy is older than
// a drop.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engineTargets } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { databaseIdentity, namespaceOf } from '../../src/db/database-identity.js';
import { PeriodicJobs } from '../../src/lib/periodic.js';

const postgres = (await engineTargets()).find((e) => e.name === 'postgres')!;
const redisSkip = await redisSkipReason();

describe('cache versions kept in Redis [postgres]', { skip: postgres.skip ?? redisSkip }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres, { REDIS_URL: TEST_REDIS_URL });
  });
  after(async () => t?.close());

  const me = async (key: string) => {
    const res = await t.request({ method: 'GET', url: '/v1/me', key });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  it('a change committed by a writer that never dropped the copy is seen after the next reconcile', async () => {
    const shared = t.ctx.sharedVersions!;
    assert.ok(shared, 'PostgreSQL with Redis keeps versions in Redis');
    await shared.reconcile();
    const { store, key } = await t.tenant();
    await me(key);
    assert.equal((await me(key)).store.name, 'Test Store');
    // Committed through the service, as a process would before dying: no drop in Redis.
    await t.ctx.stores.update(store.handle, { name: 'Changed behind the copy' });
    assert.equal(
      (await me(key)).store.name,
      'Test Store',
      'the copy in Redis still names the old versions until a reconcile',
    );
    await shared.reconcile();
    assert.equal((await me(key)).store.name, 'Changed behind the copy');
    // Unchanged stores keep their copies: the next look finds nothing to drop.
    const before = t.ctx.queryCount();
    await me(key);
    assert.equal(t.ctx.queryCount() - before, 0);
  });

  it('a server reconciles at once and then every second, on its timers', async () => {
    const { store, key } = await t.tenant();
    await me(key);
    await me(key);
    await t.ctx.stores.update(store.handle, { name: 'Changed while no one looked' });
    assert.equal((await me(key)).store.name, 'Test Store', 'nothing dropped the copy yet');
    // Timers the test fires by hand: each scheduled wait is recorded, and nothing runs by itself.
    const waits: Array<{ ms: number; run: () => void }> = [];
    let scheduled: () => void = () => {};
    const timers = {
      setTimeout: (run: () => void, ms: number) => {
        waits.push({ ms, run });
        scheduled();
        return waits.length;
      },
      clearTimeout: () => {},
    };
    const next = () => new Promise<void>((resolve) => (scheduled = resolve));
    const jobs = new PeriodicJobs([t.ctx.jobs.job('cache-version-reconcile')], { timers });
    jobs.start();
    assert.deepEqual(
      waits.map((w) => w.ms),
      [0],
    );
    const second = next();
    waits[0]!.run();
    await second;
    assert.deepEqual(
      waits.map((w) => w.ms),
      [0, 1000],
    );
    assert.equal((await me(key)).store.name, 'Changed while no one looked');
    await jobs.stop();
  });

  it('a copy read before a drop is never put back after it', async () => {
    const shared = t.ctx.sharedVersions!;
    const { store } = await t.tenant();
    const client = t.ctx.traffic.redis!.client;
    const hashKey = shared.keyOf(store.id);
    await shared.reconcile();
    await shared.drop([store.id]);
    const gen = await client.hget(hashKey, 'gen');
    // A reader that saw the generation before the drop: its copy may predate the commit.
    shared.fill(store.id, shared.parse([null, null, null, String(Number(gen) - 1)])!, {
      keys: 1,
      content: 1,
      usage: 1,
    });
    await client.ping();
    assert.deepEqual(await client.hgetall(hashKey), { gen });
    // A reader that saw the current generation puts its copy back.
    shared.fill(store.id, shared.parse([null, null, null, gen])!, { keys: 3, content: 4, usage: 5 });
    await client.ping();
    assert.deepEqual(await client.hgetall(hashKey), { gen, keys: '3', content: '4', usage: '5' });
  });

  it('the database records that its versions are kept in Redis, under a namespace of its own and of its identity', async () => {
    const row = await t.ctx.db
      .selectFrom('service_settings')
      .select('value')
      .where('name', '=', 'cache_versions_redis')
      .executeTakeFirst();
    assert.ok(row && row.value.length >= 32);
    const identity = await databaseIdentity(t.ctx.db, 'postgres');
    assert.match(identity, /^\d+:\d+:\d+:\d+$/);
    assert.equal(t.ctx.sharedVersions!.keyOf(7), `blogapi:versions:${namespaceOf(row.value, identity)}:7`);
  });
});
