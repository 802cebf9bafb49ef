// GET /livez and GET /readyz: no key, no rate limit, not logged at info; readiness asks the
// database, Redis (when configured) and the media store, each within HEALTH_CHECK_TIMEOUT_MS,
// and names every failing check. Plain /readyz answers 503 only when the process cannot serve
// (the database, shutdown); a failing Redis or media store is `degraded` with a warning and 200.
// /readyz?strict=1 answers 503 for any failing check. Dependencies fail
// for real: a proxy in front of PostgreSQL or Redis stops passing bytes (a hang, not an error),
// Redis is pointed at a closed port, the media folder cannot be created.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describeOnPostgres, type EngineTarget } from '../helpers/engines.js';
import { unusedPort } from '../helpers/ports.js';
import { assertCommonHeaders } from '../helpers/assertions.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { DEGRADED_WARNINGS } from '../../src/http/readiness.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const PER_PROCESS =
  'REDIS_URL is not set: rate, concurrency and in-flight limits are counted per process, so N processes allow N times the limits';

function assertProbe(res: LightMyRequestResponse, status: number, body: unknown): void {
  assert.equal(res.statusCode, status, res.body);
  assert.deepEqual(res.json(), body);
  assertCommonHeaders(res);
  assert.equal(res.headers['x-ratelimit-limit'], undefined, 'no rate limit applies');
}

const readyz = (t: TestApp) => t.request({ method: 'GET', url: '/readyz' });

/**
 * /readyz until it answers 200 (bounded): after a start or an outage a connection is re-opened
 * by the probe itself, which may take longer than one probe's time bound.
 */
async function readyAgain(t: TestApp, withinMs = 15_000): Promise<LightMyRequestResponse> {
  const until = Date.now() + withinMs;
  let res = await readyz(t);
  while (res.statusCode !== 200 && Date.now() < until) res = await readyz(t);
  return res;
}
const livez = (t: TestApp) => t.request({ method: 'GET', url: '/livez' });

const redisUp = await redisReachable();

describeTenantApp('health probes', { env: { HEALTH_CHECK_TIMEOUT_MS: '300' }, tenant: false }, (suite) => {
  const warnings = suite.target.name === 'postgres' ? [PER_PROCESS] : [];

  it('answers /livez and /readyz without a key, every time, and never logs them at info', async () => {
    for (let i = 0; i < 30; i++) {
      assertProbe(await livez(suite.t), 200, { status: 'alive' });
      assertProbe(await readyz(suite.t), 200, {
        status: 'ready',
        checks: { database: { status: 'ok' }, redis: { status: 'not_configured' }, media: { status: 'ok' } },
        failing: [],
        degraded: [],
        warnings,
      });
    }
    assert.deepEqual(
      suite.t.logs.filter((line) => /livez|readyz/.test(line)),
      [],
    );
    // Other requests still are logged at info.
    await suite.t.request({ method: 'GET', url: '/v1/me' });
    assert.ok(suite.t.logs.some((line) => line.includes('/v1/me')));
  });

  it('names the media store when it cannot be written: still ready (degraded, with a warning), 503 only when strict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogapi-health-'));
    // The media folder's parent is a file, so the folder can never be made.
    writeFileSync(join(dir, 'not-a-dir'), 'x');
    const broken = await startTestApp(suite.target, {
      MEDIA_DIR: join(dir, 'not-a-dir', 'media'),
      HEALTH_CHECK_TIMEOUT_MS: '300',
    });
    try {
      const checks = {
        database: { status: 'ok' },
        redis: { status: 'not_configured' },
        media: { status: 'failed', reason: 'unavailable' },
      };
      assertProbe(await readyz(broken), 200, {
        status: 'ready',
        checks,
        failing: [],
        degraded: ['media'],
        warnings: [...warnings, DEGRADED_WARNINGS.media],
      });
      assertProbe(await broken.request({ method: 'GET', url: '/readyz?strict=1' }), 503, {
        status: 'not_ready',
        checks,
        failing: ['media'],
        degraded: [],
        warnings,
      });
      assertProbe(await livez(broken), 200, { status: 'alive' });
      // The reason goes to the log (once), not to the unauthenticated caller.
      assert.equal(broken.logs.filter((line) => line.includes('readiness check failing')).length, 1);
      await readyz(broken);
      assert.equal(
        broken.logs.filter((line) => line.includes('readiness check failing')).length,
        1,
        'logged when it starts failing, not on every probe',
      );
      assert.match(
        broken.logs.find((line) => line.includes('readiness check failing'))!,
        /"level":40.*"check":"media"/,
      );
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names Redis when it refuses connections: still ready (degraded, with warnings), 503 only when strict', async () => {
    const broken = await startTestApp(suite.target, {
      REDIS_URL: `redis://127.0.0.1:${await unusedPort()}`,
      HEALTH_CHECK_TIMEOUT_MS: '300',
    });
    try {
      const res = await readyz(broken);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      // (The media check is a write to a local folder; only Redis is broken here, but a loaded
      // machine may see the 300 ms bound pass, so it is not asserted.)
      assert.deepEqual(
        [body.status, body.checks.database, body.failing, body.degraded[0]],
        ['ready', { status: 'ok' }, [], 'redis'],
      );
      // A refused connection fails at once or, while the first attempt is still settling, by the time bound.
      assert.match(body.checks.redis.reason, /^(unavailable|timed_out)$/);
      assert.equal(body.warnings[0], DEGRADED_WARNINGS.redis);
      assert.ok(
        body.warnings.some((w: string) => /^redis: \d+ unreachable errors? in the last minute/.test(w)),
        body.warnings.join('\n'),
      );
      const strict = await broken.request({ method: 'GET', url: '/readyz?strict=1' });
      assert.equal(strict.statusCode, 503, strict.body);
      assert.deepEqual(
        [strict.json().status, strict.json().failing[0], strict.json().degraded],
        ['not_ready', 'redis', []],
      );
      assertProbe(await livez(broken), 200, { status: 'alive' });
    } finally {
      await broken.close();
    }
  });

  it(
    'answers in bounded time when Redis hangs, and is ready again when it answers',
    { skip: !redisUp && `Redis not reachable at ${TEST_REDIS_URL}` },
    async () => {
      const redis = new URL(TEST_REDIS_URL);
      const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
      const proxied = new URL(TEST_REDIS_URL);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const app = await startTestApp(suite.target, { REDIS_URL: proxied.toString(), HEALTH_CHECK_TIMEOUT_MS: '300' });
      try {
        const ok = {
          status: 'ready',
          checks: { database: { status: 'ok' }, redis: { status: 'ok' }, media: { status: 'ok' } },
          failing: [],
          degraded: [],
          warnings: [],
        };
        // The Redis connection is opened by the first use: the first probe starts it.
        assertProbe(await readyAgain(app), 200, ok);
        proxy.setHung(true);
        const started = Date.now();
        assertProbe(await app.request({ method: 'GET', url: '/readyz?strict=1' }), 503, {
          status: 'not_ready',
          checks: {
            database: { status: 'ok' },
            redis: { status: 'failed', reason: 'timed_out' },
            media: { status: 'ok' },
          },
          failing: ['redis'],
          degraded: [],
          warnings: [],
        });
        assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
        const plain = await readyz(app);
        assert.equal(plain.statusCode, 200, plain.body);
        assert.deepEqual(plain.json().degraded, ['redis']);
        proxy.setHung(false);
        // Ready with no warning once Redis answers again and its errors are a minute old.
        app.clock.advance(61_000);
        const again = await readyAgain(app);
        assert.equal(again.statusCode, 200);
        assert.deepEqual(again.json().degraded, []);
        assert.ok(app.logs.some((line) => /"check":"redis".*"msg":"readiness check recovered"/.test(line)));
      } finally {
        // The proxy goes first: a command lost in the hang is then failed, not waited for.
        await proxy.close();
        await app.close();
      }
    },
  );

  it('answers 503 as soon as shutdown begins, and its answers then close their connection', async () => {
    const closing = await startTestApp(suite.target);
    try {
      closing.app.shutdownFlag.begin();
      const res = await readyz(closing);
      assertProbe(res, 503, {
        status: 'not_ready',
        checks: { shutdown: { status: 'failed', reason: 'shutting_down' } },
        failing: ['shutdown'],
        degraded: [],
        warnings,
      });
      assert.equal(res.headers.connection, 'close');
      assertProbe(await livez(closing), 200, { status: 'alive' });
    } finally {
      await closing.close();
    }
  });
});

/** The same engine with every connection going through a proxy that can be told to hang. */
function throughProxy(target: EngineTarget, proxy: () => TcpProxy): EngineTarget {
  return {
    ...target,
    async create() {
      const created = await target.create();
      if (created.database.engine !== 'postgres') return created;
      const url = new URL(created.database.url);
      url.hostname = '127.0.0.1';
      url.port = String(proxy().port);
      return { database: { engine: 'postgres', url: url.toString() }, drop: created.drop };
    },
  };
}

// SQLite is a file in this process: there is no connection that could hang.
describeOnPostgres('readiness when PostgreSQL hangs', (target) => {
  let proxy: TcpProxy;
  let t: TestApp;
  before(async () => {
    const admin = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    t = await startTestApp(
      throughProxy(target, () => proxy),
      { HEALTH_CHECK_TIMEOUT_MS: '300' },
    );
  });
  after(async () => {
    // The proxy goes first: a query lost in the hang then fails instead of holding the pool open.
    await proxy?.close();
    await t?.close();
  });

  it('names the database within the time bound while /livez stays 200, and recovers', async () => {
    const ok = {
      status: 'ready',
      checks: { database: { status: 'ok' }, redis: { status: 'not_configured' }, media: { status: 'ok' } },
      failing: [],
      degraded: [],
      warnings: [PER_PROCESS],
    };
    assertProbe(await readyz(t), 200, ok);
    proxy.setHung(true);
    const started = Date.now();
    assertProbe(await readyz(t), 503, {
      status: 'not_ready',
      checks: {
        database: { status: 'failed', reason: 'timed_out' },
        redis: { status: 'not_configured' },
        media: { status: 'ok' },
      },
      failing: ['database'],
      degraded: [],
      warnings: [PER_PROCESS],
    });
    assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
    assertProbe(await livez(t), 200, { status: 'alive' });
    proxy.setHung(false);
    assertProbe(await readyAgain(t), 200, ok);
  });
});
