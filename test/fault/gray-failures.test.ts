// Gray failures: a dependency that is slow or hung rather than gone. Three server processes on
// one PostgreSQL database and a Redis of this test's own, each process reaching both through a
// TCP fault proxy of its own (test/helpers/tcp-proxy.ts: pass, hang, delay, reset), so a case can
// hang Redis for the whole fleet or one process's link alone. Each case prints its figures
// (p50/p95/max, counts) and holds the bounds of docs/operations.md, "Gray failures".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { postgresEngine } from '../helpers/engines.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import type { PrivateRedis } from '../helpers/private-redis.js';
import { fleetTenant, startFleetGround, type FleetGround } from '../helpers/fleet-tenant.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { send, type FetchedResponse } from '../helpers/fetch-response.js';
import { assertError } from '../helpers/assertions.js';

/** The fleet's settings: short timeouts, so each case takes seconds, and a small pool, so it can be filled. */
const STATEMENT_TIMEOUT_MS = 3000;
const POOL_MAX = 5;
const POOL_WAIT_MS = 1000;
const FLEET_ENV = {
  DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
  DATABASE_CONNECT_TIMEOUT_MS: '2000',
  DATABASE_POOL_MAX: String(POOL_MAX),
  DATABASE_POOL_WAIT_TIMEOUT_MS: String(POOL_WAIT_MS),
};

interface Timed {
  at: number;
  ms: number;
  res: FetchedResponse | null;
}

const numberOf = (title: string) => Number(/^t-(\d+)$/.exec(title)?.[1] ?? -1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Keeps each loop sending back to back while `fault` runs, then stops them and waits for their
 * last requests: the shape of every case here (load, a fault, its end, a summary).
 */
async function underLoad(loops: Array<(stopped: () => boolean) => Promise<void>>, fault: () => Promise<void>) {
  let done = false;
  const running = loops.map((loop) => loop(() => done));
  try {
    await fault();
  } finally {
    done = true;
    await Promise.all(running);
  }
}

/** At least `atLeast` requests, 95 % of them answered within 300 ms: not waiting on the fault. */
function assertFast(timed: Timed[], atLeast: number): void {
  assert.ok(timed.length >= atLeast, `${timed.length} requests in the window`);
  assert.ok(
    percentile(
      timed.map((t) => t.ms),
      95,
    ) <= 300,
    figures(timed),
  );
}

const figures = (timed: Timed[]) => {
  const ms = timed.map((t) => t.ms);
  return `${timed.length} requests, p50 ${percentile(ms, 50)} ms, p95 ${percentile(ms, 95)} ms, max ${Math.max(0, ...ms)} ms`;
};

async function timedSend(...args: Parameters<typeof send>): Promise<Timed> {
  const at = Date.now();
  const res = await send(...args).catch(() => null);
  return { at, ms: Date.now() - at, res };
}

/** The value of one series of a /metrics answer (0 when absent). */
function metric(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const sumOf = (text: string, name: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .reduce((total, l) => total + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

describe(
  'gray failures: a hung or slow Redis or PostgreSQL under a fleet of three [postgres]',
  { skip: postgresEngine.skip, timeout: 600_000 },
  () => {
    let ground: FleetGround;
    let redis: PrivateRedis;
    let database: { url: string };
    let media: string;
    let admin: pg.Client;
    const servers: ServerProcess[] = [];
    const redisProxies: TcpProxy[] = [];
    const dbProxies: TcpProxy[] = [];

    before(async () => {
      ground = await startFleetGround('gray');
      ({ redis, database, media } = ground);
      admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      const dbUrl = new URL(database.url);
      for (let i = 0; i < 3; i++) {
        const redisProxy = await startTcpProxy({ host: '127.0.0.1', port: redis.port });
        const dbProxy = await startTcpProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
        redisProxies.push(redisProxy);
        dbProxies.push(dbProxy);
        const proxied = new URL(database.url);
        proxied.hostname = '127.0.0.1';
        proxied.port = String(dbProxy.port);
        servers.push(
          await startServerProcess({
            ...FLEET_ENV,
            DATABASE_URL: proxied.toString(),
            REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
            MEDIA_DIR: media,
          }),
        );
      }
    });
    after(async () => {
      for (const s of servers) await s.stop().catch(() => undefined);
      for (const p of [...redisProxies, ...dbProxies]) await p.close();
      await admin?.end();
      await ground?.release();
    });

    /** A store, a key (limits far away unless given), a post titled t-0 (test/helpers/fleet-tenant.ts). */
    const tenant = (keyOptions: { concurrency?: number } = {}) =>
      fleetTenant(
        { DATABASE_URL: database.url, REDIS_URL: redis.url, MEDIA_DIR: media },
        servers[0]!.baseUrl,
        keyOptions,
      );

    const metricsOf = async (s: ServerProcess) => (await send(s.baseUrl, 'GET', '/metrics')).body;

    /** Waits (bounded) until every process's breakers are closed and its Redis copies trusted again. */
    async function waitNormal(limitMs: number): Promise<number> {
      const started = Date.now();
      for (;;) {
        const texts = await Promise.all(servers.map(metricsOf));
        const normal = texts.every(
          (t) =>
            metric(t, 'blog_api_circuit_open{dependency="redis"}') === 0 &&
            metric(t, 'blog_api_circuit_open{dependency="database"}') === 0 &&
            metric(t, 'blog_api_redis_versions_trusted') === 1,
        );
        if (normal) return Date.now() - started;
        if (Date.now() - started > limitMs) return -1;
        await sleep(100);
      }
    }

    it('Redis hung for 8 s under load: reads fast within 3 s, writes within 3 s, no stale read, normal within 5 s of its return', async () => {
      const { key, postId } = await tenant();
      for (const s of servers) await send(s.baseUrl, 'GET', `/v1/blog/posts/${postId}`, { key });
      const reads: Timed[] = [];
      const writes: Timed[] = [];
      let acked = 0;
      let stale = 0;
      const readers = servers.slice(1).map((s) => async (stopped: () => boolean) => {
        while (!stopped()) {
          const before = acked;
          const t = await timedSend(s.baseUrl, 'GET', `/v1/blog/posts/${postId}`, { key });
          reads.push(t);
          if (t.res?.statusCode === 200 && numberOf(t.res.json().title) < before) stale += 1;
        }
      });
      const writer = async (stopped: () => boolean) => {
        for (let n = 1; !stopped(); n++) {
          const t = await timedSend(servers[0]!.baseUrl, 'PATCH', `/v1/blog/posts/${postId}`, {
            key,
            body: { title: `t-${n}` },
          });
          writes.push(t);
          if (t.res?.statusCode === 200) acked = n;
          await sleep(50);
        }
      };
      let hungAt = 0;
      let backAt = 0;
      let normalAfterMs = -1;
      await underLoad([...readers, writer], async () => {
        await sleep(1000);
        hungAt = Date.now();
        for (const p of redisProxies) p.setMode('hang');
        await sleep(8000);
        for (const p of redisProxies) p.setMode('pass');
        backAt = Date.now();
        normalAfterMs = await waitNormal(5000);
        await sleep(1000);
      });

      const during = reads.filter((t) => t.at >= hungAt + 3000 && t.at < backAt);
      const duringWrites = writes.filter((t) => t.at >= hungAt && t.at < backAt);
      const failedReads = reads.filter((t) => t.res?.statusCode !== 200).length;
      const failedWrites = writes.filter((t) => t.res?.statusCode !== 200).length;
      process.stdout.write(
        `gray "Redis hung 8 s": reads from 3 s into the hang: ${figures(during)}; writes during the hang: ${figures(duringWrites)}; ` +
          `${failedReads} reads and ${failedWrites} writes failed, ${stale} stale reads; normal ${normalAfterMs} ms after Redis returned\n`,
      );
      assert.equal(failedReads, 0);
      assert.equal(failedWrites, 0);
      assert.equal(stale, 0);
      assertFast(during, 20);
      assert.ok(duringWrites.length >= 2);
      assert.ok(Math.max(...duringWrites.map((t) => t.ms)) <= 3000, figures(duringWrites));
      assert.ok(normalAfterMs >= 0 && normalAfterMs <= 5000, `normal ${normalAfterMs} ms after Redis returned`);
      // The breaker opened on every process and its opening is counted.
      for (const s of servers)
        assert.ok(metric(await metricsOf(s), 'blog_api_circuit_opens_total{dependency="redis"}') >= 1);
    });

    it('every Redis reply delayed 1.2 s (past the command timeout) for 6 s: reads fast within 3 s, normal within 5 s after', async () => {
      const { key, postId } = await tenant();
      const s = servers[1]!;
      await send(s.baseUrl, 'GET', `/v1/blog/posts/${postId}`, { key });
      const reads: Timed[] = [];
      let slowAt = 0;
      let backAt = 0;
      let normalAfterMs = -1;
      const reader = async (stopped: () => boolean) => {
        while (!stopped()) reads.push(await timedSend(s.baseUrl, 'GET', `/v1/blog/posts/${postId}`, { key }));
      };
      await underLoad([reader], async () => {
        await sleep(300);
        slowAt = Date.now();
        for (const p of redisProxies) p.setMode({ delayMs: 1200 });
        await sleep(6000);
        for (const p of redisProxies) p.setMode('pass');
        backAt = Date.now();
        normalAfterMs = await waitNormal(5000);
      });
      const during = reads.filter((t) => t.at >= slowAt + 3000 && t.at < backAt);
      const failed = reads.filter((t) => t.res?.statusCode !== 200).length;
      process.stdout.write(
        `gray "Redis replies 1.2 s late": reads from 3 s in: ${figures(during)}; ${failed} failed; normal ${normalAfterMs} ms after\n`,
      );
      assert.equal(failed, 0);
      assertFast(during, 20);
      assert.ok(normalAfterMs >= 0 && normalAfterMs <= 5000, `normal ${normalAfterMs} ms after`);
    });

    it('a 6 s Redis stall does not lock a key of concurrency 2 out afterwards', async () => {
      const { key } = await tenant({ concurrency: 2 });
      const s = servers[1]!;
      const answers: Timed[] = [];
      let backAt = 0;
      const caller = async (stopped: () => boolean) => {
        while (!stopped()) answers.push(await timedSend(s.baseUrl, 'GET', '/v1/me', { key }));
      };
      await underLoad([caller], async () => {
        await sleep(500);
        for (const p of redisProxies) p.setMode('hang');
        await sleep(6000);
        for (const p of redisProxies) p.setMode('pass');
        backAt = Date.now();
        await sleep(6000);
      });
      const after = answers.filter((t) => t.at >= backAt + 2000);
      const refused = answers.filter((t) => t.res?.statusCode === 429);
      process.stdout.write(
        `gray "Redis stalled 6 s, concurrency 2": ${answers.length} sequential requests, ${refused.length} answered 429 (${after.filter((t) => t.res?.statusCode === 429).length} of ${after.length} from 2 s after the stall)\n`,
      );
      assert.ok(after.length >= 10);
      assert.deepEqual(
        after.filter((t) => t.res?.statusCode !== 200).map((t) => t.res?.statusCode ?? 'no answer'),
        [],
      );
    });

    it('a busy pool is not unready: /readyz stays 200 and requests past the pool wait answer 503 with Retry-After, never 500', async () => {
      const tenants = await Promise.all(servers.map(() => tenant()));
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      const readiness: number[] = [];
      const prober = async (stopped: () => boolean) => {
        while (!stopped()) {
          for (const s of servers) readiness.push((await send(s.baseUrl, 'GET', '/readyz')).statusCode);
          await sleep(100);
        }
      };
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
        let requests: Array<Promise<Timed>> = [];
        await underLoad([prober], async () => {
          requests = servers.flatMap((s, i) =>
            Array.from({ length: 3 * POOL_MAX }, (_, j) =>
              timedSend(s.baseUrl, 'PATCH', `/v1/blog/posts/${tenants[i]!.postId}`, {
                key: tenants[i]!.key,
                body: { title: `t-${j + 1}` },
              }),
            ),
          );
          await sleep(2500);
          await locker.query('COMMIT');
        });
        const answers = await Promise.all(requests);
        const statuses = answers.map((t) => t.res?.statusCode ?? 0);
        const busy = answers.filter((t) => t.res?.statusCode === 503);
        process.stdout.write(
          `gray "pool busy behind a lock": ${answers.length} writes: ${statuses.filter((c) => c === 200).length} answered 200, ${busy.length} 503 (${figures(busy)}); /readyz ${readiness.filter((c) => c === 200).length} of ${readiness.length} ready\n`,
        );
        assert.deepEqual(
          statuses.filter((c) => c !== 200 && c !== 503),
          [],
        );
        assert.ok(busy.length > 0, 'some requests waited past the pool wait');
        for (const t of busy) {
          assertError(t.res!, 'service_unavailable');
          assert.equal(t.res!.headers['retry-after'], '1');
          assert.ok(t.ms < POOL_WAIT_MS + 1500, `${t.ms} ms`);
        }
        assert.ok(readiness.length >= 6);
        assert.deepEqual(
          readiness.filter((c) => c !== 200),
          [],
        );
      } finally {
        await locker.end().catch(() => undefined);
      }
    });

    it('connections lost under reads (backends killed, links reset) fail no read', async () => {
      const { key } = await tenant();
      const reads: Timed[] = [];
      const answered = servers.map(() => 0);
      const readers = servers.map((s, n) => async (stopped: () => boolean) => {
        for (let i = 0; !stopped(); i++) {
          // Never cached: the feed and lists of varying sizes reach PostgreSQL every time.
          const path = i % 2 === 0 ? '/v1/events?limit=5' : `/v1/blog/posts?limit=${1 + (i % 40)}`;
          reads.push(await timedSend(s.baseUrl, 'GET', path, { key }));
          answered[n]! += 1;
        }
      });
      // Each round waits 250 ms and until every process has answered a read since the last one:
      // the connections are lost often, but never faster than a read can be answered, which no
      // bounded retry could survive (a slow machine's read taking longer than 250 ms would be cut
      // on every try).
      let seen = [...answered];
      const nextRound = async () => {
        await sleep(250);
        for (let waited = 0; waited < 10_000 && answered.some((count, n) => count <= seen[n]!); waited += 10)
          await sleep(10);
        seen = [...answered];
      };
      const dbName = new URL(database.url).pathname.slice(1);
      let killed = 0;
      await underLoad(readers, async () => {
        for (let round = 0; round < 8; round++) {
          await nextRound();
          const { rowCount } = await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
            [dbName],
          );
          killed += rowCount ?? 0;
        }
        for (let round = 0; round < 8; round++) {
          await nextRound();
          for (const p of dbProxies) {
            p.setMode('reset');
            p.setMode('pass');
          }
        }
        await sleep(500);
      });
      const failed = reads.filter((t) => t.res?.statusCode !== 200);
      const kinds = (await Promise.all(servers.map(metricsOf))).map((text) =>
        text
          .split('\n')
          .filter((l) => l.startsWith('blog_api_database_errors_total{') && !l.endsWith(' 0'))
          .join(' '),
      );
      process.stdout.write(`gray "connections lost": database errors by process: ${kinds.join(' | ')}\n`);
      process.stdout.write(
        `gray "connections lost": ${reads.length} reads, ${killed} backends killed in 8 rounds, links reset 8 times, ${failed.length} failed (${failed
          .slice(0, 3)
          .map((t) =>
            t.res
              ? `${t.res.statusCode} Retry-After ${t.res.headers['retry-after'] ?? '-'} ${t.res.body}`
              : 'no answer',
          )
          .join(' | ')})\n`,
      );
      // What the servers logged for each failed read, so that a failure says which path it took.
      const logged = failed.flatMap((t) => {
        const id = t.res ? /"request_id":"([^"]+)"/.exec(t.res.body)?.[1] : undefined;
        if (!id) return [];
        return servers.flatMap((s) =>
          s
            .stdout()
            .split('\n')
            .filter((line) => line.includes(id)),
        );
      });
      if (logged.length > 0)
        process.stdout.write(`gray "connections lost": logged for failed reads:\n${logged.join('\n')}\n`);
      assert.ok(killed >= 8);
      assert.ok(reads.length > 50);
      assert.equal(failed.length, 0);
    });

    it("one process's PostgreSQL link hangs: requests end in bounded time with 503, the breaker answers at once, errors count against the database, never Redis", async () => {
      const { key } = await tenant();
      const cut = servers[2]!;
      const before = await metricsOf(cut);
      const answers: Timed[] = [];
      const loops = [0, 1, 2].map((n) => async (stopped: () => boolean) => {
        for (let i = 0; !stopped(); i++) {
          answers.push(await timedSend(cut.baseUrl, 'GET', `/v1/blog/posts?limit=${1 + ((i * 3 + n) % 40)}`, { key }));
        }
      });
      let hungAt = 0;
      let backAt = 0;
      let normalAfterMs = -1;
      let ready!: Awaited<ReturnType<typeof send>>;
      let otherReady!: Awaited<ReturnType<typeof send>>;
      let during = '';
      await underLoad(loops, async () => {
        await sleep(300);
        hungAt = Date.now();
        dbProxies[2]!.setMode('hang');
        await sleep(8000);
        ready = await send(cut.baseUrl, 'GET', '/readyz');
        otherReady = await send(servers[0]!.baseUrl, 'GET', '/readyz');
        during = await metricsOf(cut);
        dbProxies[2]!.setMode('pass');
        backAt = Date.now();
        normalAfterMs = await waitNormal(5000);
      });

      const inHang = answers.filter((t) => t.at >= hungAt && t.at < backAt);
      const late = inHang.filter((t) => t.at >= hungAt + STATEMENT_TIMEOUT_MS + 3000);
      const statuses = new Set(inHang.map((t) => t.res?.statusCode ?? 0));
      const redisErrors = sumOf(during, 'blog_api_redis_errors_total') - sumOf(before, 'blog_api_redis_errors_total');
      const databaseTimeouts =
        metric(during, 'blog_api_database_errors_total{kind="timeout"}') -
        metric(before, 'blog_api_database_errors_total{kind="timeout"}');
      process.stdout.write(
        `gray "one process's PostgreSQL link hung 8 s": ${figures(inHang)}, statuses ${[...statuses].join(',')}; once the breaker opened: ${figures(late)}; ` +
          `${databaseTimeouts} database timeouts and ${redisErrors} Redis errors counted; normal ${normalAfterMs} ms after the link returned\n`,
      );
      // Bounded: nothing waits past the client-side query timeout (statement timeout + 1 s) by much.
      assert.ok(Math.max(...inHang.map((t) => t.ms)) <= STATEMENT_TIMEOUT_MS + 1000 + 2000, figures(inHang));
      for (const t of inHang.filter((x) => x.res?.statusCode !== 200)) {
        assertError(t.res!, 'service_unavailable');
        assert.ok(Number(t.res!.headers['retry-after']) >= 1);
      }
      assertFast(late, 5);
      assert.equal(ready.statusCode, 503, ready.body);
      assert.equal(ready.json().checks.database.status, 'failed');
      assert.ok(
        ready.json().warnings.some((w: string) => w.startsWith('database: circuit open')),
        ready.body,
      );
      // No Redis warning of its own (the earlier cases' may still be within their minute).
      assert.ok(!ready.json().warnings.some((w: string) => w.startsWith('redis: circuit open')), ready.body);
      assert.equal(otherReady.statusCode, 200, otherReady.body);
      // Two timeouts open the breaker; background work may be the one that meets them.
      assert.ok(databaseTimeouts >= 2, `${databaseTimeouts} database timeouts`);
      assert.equal(redisErrors, 0);
      assert.ok(normalAfterMs >= 0 && normalAfterMs <= 5000, `normal ${normalAfterMs} ms after the link returned`);
      const afterwards = await send(cut.baseUrl, 'GET', '/v1/blog/posts?limit=3', { key });
      assert.equal(afterwards.statusCode, 200, afterwards.body);
    });
  },
);
