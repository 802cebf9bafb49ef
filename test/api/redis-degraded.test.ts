// A Redis of this test's own that refuses writes (over maxmemory with noeviction) or may evict
// keys (an evicting maxmemory-policy): the limits still hold, counted by each process alone, and
// the operator sees it in the metric blog_api_redis_errors_total by kind and in /readyz's
// warnings, never only in the log. The log's once-per-interval rule is in test/unit/redis-health.test.ts.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';

describeEachEngine('Redis out of memory or evicting', (target) => {
  let t: TestApp;
  let redis: PrivateRedis;
  before(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp(target, { REDIS_URL: redis.url });
  });
  after(async () => {
    await t?.close();
    await redis?.stop();
  });

  const readyz = async () => {
    const res = await t.request({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { status: string; degraded: string[]; warnings: string[] };
  };
  const redisErrors = async (kind: string) => {
    const text = (await t.request({ method: 'GET', url: '/metrics' })).body;
    const line = new RegExp(`^blog_api_redis_errors_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(text);
    assert.ok(line, `blog_api_redis_errors_total{kind="${kind}"} is exported`);
    return Number(line[1]);
  };

  it('over maxmemory with noeviction: limits counted by this process, the errors counted by kind and shown by /readyz', async () => {
    const key = await t.issueKey(await t.createStore(), ['read_blog'], { readPerMinute: 3, concurrency: 1 });
    assert.equal(await redisErrors('out_of_memory'), 0);
    assert.deepEqual((await readyz()).warnings, []);
    // Every write Redis is asked for now fails with OOM.
    await redis.admin.config('SET', 'maxmemory', '1');
    try {
      for (let i = 0; i < 3; i++)
        assert.equal((await t.request({ method: 'GET', url: '/v1/me', key })).statusCode, 200);
      assertError(await t.request({ method: 'GET', url: '/v1/me', key }), 'rate_limited');
      assert.ok((await redisErrors('out_of_memory')) >= 4);
      const ready = await readyz();
      assert.equal(ready.status, 'ready');
      assert.ok(
        ready.warnings.some((w) =>
          /^redis: \d+ out_of_memory errors in the last minute; meanwhile limits are counted by each process alone/.test(
            w,
          ),
        ),
        ready.warnings.join('\n'),
      );
    } finally {
      await redis.admin.config('SET', 'maxmemory', '0');
    }
    // The warning lasts a minute after the last error, then goes.
    t.clock.advance(61_000);
    const later = await readyz();
    assert.ok(!later.warnings.some((w) => w.includes('out_of_memory')), later.warnings.join('\n'));
  });

  it('an evicting maxmemory-policy is named in /readyz: counters could be evicted without any error', async () => {
    await redis.admin.config('SET', 'maxmemory', '64mb');
    await redis.admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      const ready = await readyz();
      assert.ok(
        ready.warnings.includes(
          'redis: maxmemory-policy is allkeys-lru: rate counters and in-flight sets can be evicted, and the limits then undercount; set maxmemory-policy noeviction',
        ),
        ready.warnings.join('\n'),
      );
    } finally {
      await redis.admin.config('SET', 'maxmemory-policy', 'noeviction');
      await redis.admin.config('SET', 'maxmemory', '0');
    }
    assert.ok(!(await readyz()).warnings.some((w) => w.includes('maxmemory-policy')));
  });
});
