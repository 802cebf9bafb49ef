// A wrong secret is refused with exactly the work of an unknown key id: the same statements to
// the database, the same Redis commands, the same SHA-256 hashes and constant-time comparisons,
// whether or not the key is in the verified keys cache. Otherwise the time of a refusal would tell
// a client which key ids exist. The work is counted, not timed: node:crypto's functions are
// wrapped with counters that call through (syncBuiltinESMExports carries the wrap to the
// application's named imports).
import { after, before, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { assertError } from '../helpers/assertions.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { describeTenantApp, type TenantSuite } from '../helpers/tenant-app.js';
import { randomLowerAlnum, randomString } from '../../src/lib/crypto.js';

const redisSkip = await redisSkipReason();
/** The not-awaited slot release and cache fills go out in later turns of the event loop. */
const nextTurns = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

function countCrypto() {
  const hashes = mock.method(crypto, 'createHash');
  const compares = mock.method(crypto, 'timingSafeEqual');
  syncBuiltinESMExports();
  return {
    counts: () => ({ hashes: hashes.mock.callCount(), compares: compares.mock.callCount() }),
    restore: () => {
      hashes.mock.restore();
      compares.mock.restore();
      syncBuiltinESMExports();
    },
  };
}

function refusalWork(suite: TenantSuite, redis: boolean) {
  let crypto: ReturnType<typeof countCrypto>;
  before(() => (crypto = countCrypto()));
  after(() => crypto.restore());

  /** The work one refused request took: statements, Redis commands, hashes, comparisons. */
  const refusal = async (key: string) => {
    await nextTurns();
    if (redis) await suite.t.ctx.traffic.redis!.client.ping();
    const statements = suite.t.ctx.queryCount();
    const commands = redis ? suite.t.ctx.traffic.commandCount() : 0;
    const { hashes, compares } = crypto.counts();
    const res = await suite.t.request({ method: 'GET', url: '/v1/me', key });
    assertError(res, 'unauthorized');
    await nextTurns();
    if (redis) await suite.t.ctx.traffic.redis!.client.ping();
    const now = crypto.counts();
    return {
      statements: suite.t.ctx.queryCount() - statements,
      redis: redis ? suite.t.ctx.traffic.commandCount() - commands - 1 : 0,
      hashes: now.hashes - hashes,
      compares: now.compares - compares,
    };
  };
  const keyIdOf = (key: string) => key.slice('svc_live_'.length, 'svc_live_'.length + 8);
  const unknownKey = () => `svc_live_${randomLowerAlnum(8)}_${randomString(32)}`;

  it('a wrong secret takes the work of an unknown key id, for a key not yet cached and for a cached one', async () => {
    const store = await suite.t.createStore();
    // A first request connects Redis; this key then stays out of the cache until it is used.
    assert.equal(
      (await suite.t.request({ method: 'GET', url: '/v1/me', key: await suite.t.issueKey(store) })).statusCode,
      200,
    );
    const key = await suite.t.issueKey(store, ['read_blog']);
    const wrongSecret = () => `svc_live_${keyIdOf(key)}_${randomString(32)}`;

    const unknown = await refusal(unknownKey());
    assert.ok(unknown.hashes >= 1 && unknown.compares >= 1, 'an unknown key id is hashed and compared too');
    assert.deepEqual(await refusal(wrongSecret()), unknown, 'a key not yet cached');

    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/me', key })).statusCode, 200);
    assert.deepEqual(await refusal(wrongSecret()), unknown, 'a cached key');
    assert.deepEqual(await refusal(unknownKey()), unknown);
    // The refusals evicted nothing: the key is still served.
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/me', key })).statusCode, 200);
  });
}

describeTenantApp('the refusal of a wrong secret', { tenant: false }, (suite) => refusalWork(suite, false));

describeTenantApp(
  'the refusal of a wrong secret, with Redis',
  { env: { REDIS_URL: TEST_REDIS_URL }, tenant: false, skip: redisSkip },
  (suite) => refusalWork(suite, true),
);
