// PostgreSQL with a Redis of this test's own: the copies of the cache versions kept in Redis are
// trusted only while this process knows they were checked against PostgreSQL since Redis last
// came back (src/cache/shared-versions.ts, "Trust"), and every Redis key is named for this
// database's life (REDIS_PREFIX, then a namespace of the database and its identity).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeOnPostgres } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';
import { namespaceOf } from '../../src/db/database-identity.js';

describeOnPostgres('cache versions in a Redis that comes back changed', (postgres) => {
  let t: TestApp;
  let redis: PrivateRedis;
  before(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp(postgres, { REDIS_URL: redis.url, REDIS_PREFIX: 'deploy-a:' });
  });
  after(async () => {
    await t?.close();
    await redis?.stop();
  });

  const me = (key: string) => t.request({ method: 'GET', url: '/v1/me', key });
  const warm = async (key: string) => {
    for (let i = 0; i < 3; i++) assert.equal((await me(key)).statusCode, 200);
  };
  /** What a server's reconcile tick does after Redis came back. */
  const tick = () => t.ctx.sharedVersions!.reconcile();
  const settle = async () => {
    for (let i = 0; i < 50 && t.ctx.traffic.redis!.client.status !== 'ready'; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it("every key the service writes starts with REDIS_PREFIX and the database's own namespace", async () => {
    const { store, key } = await t.tenant();
    await warm(key);
    const keys = await redis.admin.keys('*');
    assert.ok(keys.length > 0);
    for (const name of keys) assert.match(name, /^deploy-a:/, name);
    assert.ok(
      keys.some((name) => /^deploy-a:[\w-]{16}:rate:read:/.test(name)),
      keys.join(' '),
    );
    assert.ok(keys.includes(t.ctx.sharedVersions!.keyOf(store.id)), keys.join(' '));
    // Two databases (or one and its copy) differ in identity, so never in namespace.
    assert.notEqual(namespaceOf('same secret', '1:1:16384:16500'), namespaceOf('same secret', '1:1:16385:16500'));
  });

  it('a Redis restarted from an older snapshot never brings back a revoked key or an old store name', async () => {
    const { store, key } = await t.tenant();
    const kept = await t.issueKey(store);
    await warm(key);
    await warm(kept);
    await redis.snapshot('before-revoke');
    // The operator's changes, each dropped in Redis as the CLI does (this process's own caches
    // keep what they hold: only the versions tell them).
    await t.ctx.keys.revoke(key.slice(9, 17));
    await t.ctx.stores.update(store.handle, { name: 'Renamed after the snapshot' });
    await t.ctx.sharedVersions!.drop([store.id]);
    await redis.restart('before-revoke');
    await settle();
    // Redis now holds the copy from before the revocation; the process has seen it come back,
    // and its next look checks every copy against PostgreSQL before any is used again.
    assert.equal(t.ctx.sharedVersions!.isTrusted, false);
    await tick();
    assert.equal(t.ctx.sharedVersions!.isTrusted, true);
    for (let i = 0; i < 3; i++) {
      assertError(await me(key), 'unauthorized');
      assert.equal((await me(kept)).json().store.name, 'Renamed after the snapshot');
    }
  });

  it('a flushed Redis (the epoch marker gone) is checked again before its copies are used', async () => {
    const { store, key } = await t.tenant();
    await warm(key);
    assert.equal(t.ctx.sharedVersions!.isTrusted, true);
    await redis.admin.flushall();
    // A copy that is behind, written after the flush (as a lagging replica would hold it).
    await t.ctx.stores.update(store.handle, { name: 'Changed after the flush' });
    await redis.admin.hset(t.ctx.sharedVersions!.keyOf(store.id), { keys: 1, content: 1, usage: 1, gen: 0 });
    assert.equal((await me(key)).json().store.name, 'Changed after the flush');
    assert.equal(t.ctx.sharedVersions!.isTrusted, false, 'the missing marker was noticed');
    await tick();
    assert.equal(t.ctx.sharedVersions!.isTrusted, true);
    assert.equal(
      await redis.admin.hget(t.ctx.sharedVersions!.keyOf(store.id), 'keys'),
      null,
      'the copy behind was dropped by the check',
    );
    assert.equal((await me(key)).json().store.name, 'Changed after the flush');
  });

  it("a version is the commit's clock time in microseconds: a restored database never hands out an old number again", async () => {
    const { store } = await t.tenant();
    const read = async () =>
      await t.ctx.db
        .selectFrom('cache_versions')
        .selectAll()
        .where('store_id', '=', store.id)
        .executeTakeFirstOrThrow();
    const first = await read();
    const nowUs = Date.now() * 1000;
    assert.ok(Math.abs(Number(first.keys_version) - nowUs) < 60_000_000, `${first.keys_version} is about ${nowUs}`);
    await t.ctx.stores.update(store.handle, { name: 'Again' });
    const second = await read();
    assert.ok(Number(second.keys_version) > Number(first.keys_version));
    // Set back (a restore to before these writes), the next write still goes above both.
    await t.ctx.db
      .updateTable('cache_versions')
      .set({ keys_version: 5, content_version: 5, usage_version: 5 })
      .where('store_id', '=', store.id)
      .execute();
    await t.ctx.stores.update(store.handle, { name: 'After the restore' });
    assert.ok(Number((await read()).keys_version) > Number(second.keys_version));
  });
});
