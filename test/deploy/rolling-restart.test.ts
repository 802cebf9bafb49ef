// Deploys and crashes behind the reference load balancers (deploy/nginx.conf, deploy/haproxy.cfg,
// deploy/Caddyfile, run by Debian's nginx, HAProxy and Caddy over TLS on loopback): three API processes on PostgreSQL,
// Redis and an S3 server, a bounded load of reads, idempotent creates and uploads.
// - Rolling restart: each process in turn gets SIGTERM (default SHUTDOWN_DRAIN_MS) and is
//   started again; no request may fail, and every acknowledged write must be there.
// - kill -9 of one process: only requests already inside it may fail (behind Caddy, also a write
//   that was the first to find it gone, within one active-check interval); they are counted and
//   printed, and the balancer routes around the dead process from then on.
import { after, afterEach, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { describeOnPostgres, postgresEngine } from '../helpers/engines.js';
import { unusedPort } from '../helpers/ports.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { uniqueJpeg } from '../api/media-support.js';
import { missingBalancer, startBalancer, type BalancerName } from './balancers.js';
import { moreAnswers, startLoad, type Load } from './load.js';

const BALANCERS: BalancerName[] = ['nginx', 'haproxy', 'caddy'];

const redisUp = await redisReachable();
const missing = BALANCERS.map(missingBalancer).filter(Boolean).join('; ');
if (process.env.CI === 'true' && (missing || !redisUp))
  throw new Error(`CI needs nginx, HAProxy, Caddy and Redis: ${missing || `Redis not reachable at ${TEST_REDIS_URL}`}`);
const skip =
  postgresEngine.skip ?? (redisUp ? undefined : `Redis not reachable at ${TEST_REDIS_URL}`) ?? (missing || undefined);

const CLIENTS = 6;
/** deploy/Caddyfile's `health_interval`: by then its active check has taken a dead process out. */
const CADDY_CHECK_INTERVAL_MS = 1000;

describeOnPostgres('deploys and crashes behind the reference load balancers', (postgres) => {
  let t: TestApp;
  let s3: TestS3;
  let env: Record<string, string>;
  let key: string;
  let jpeg: Buffer;
  const running: ServerProcess[] = [];

  before(async () => {
    s3 = await startS3();
    t = await startTestApp(postgres);
    env = {
      DATABASE_URL: t.config.database.url,
      REDIS_URL: TEST_REDIS_URL,
      ...s3.env,
      S3_PREFIX: `deploy-${randomLowerAlnum(8)}/`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      PUBLIC_BASE_URL: 'http://blog.test',
      MIGRATE_ON_START: 'false',
      // The defaults a deployment runs with: the drain is what this test is about.
      SHUTDOWN_DRAIN_MS: '5000',
      SHUTDOWN_GRACE_MS: '10000',
    };
    const store = await t.createStore({
      media: true,
      changes: { posts_per_day: 1_000_000, images_per_day: 1_000_000 },
    });
    key = await t.issueKey(store, undefined, {
      readPerMinute: 1_000_000,
      writePerMinute: 1_000_000,
      concurrency: 1000,
    });
    jpeg = await uniqueJpeg();
  });
  // Each case starts with an empty bucket: s3rver (in this process) slows down as objects pile
  // up, and three cases' uploads made the third case's uploads time out on a slow machine.
  afterEach(async () => {
    await s3.clear();
  });
  after(async () => {
    for (const server of running) await server.kill();
    await t?.close();
    await s3?.close();
  });

  /** Three processes on ports of their own (a restarted process takes its port again). */
  async function startFleet(): Promise<{ ports: number[]; servers: ServerProcess[] }> {
    const ports = [await unusedPort(), await unusedPort(), await unusedPort()];
    const servers: ServerProcess[] = [];
    for (const port of ports) servers.push(await startOn(port));
    return { ports, servers };
  }

  async function startOn(port: number): Promise<ServerProcess> {
    const server = await startServerProcess({ ...env, PORT: String(port) });
    running.push(server);
    return server;
  }

  /** The balancer sends this process requests: its access log shows one. */
  const inRotation = (server: ServerProcess) => server.waitForOutput(/"msg":"request completed"/, 60_000);

  function summary(name: string, what: string, load: Load): string {
    const ops = ['read', 'create', 'upload']
      .map((op) => `${load.outcomes.filter((o) => o.op === op).length} ${op}s`)
      .join(', ');
    return `${name} ${what}: ${load.outcomes.length} requests (${ops}) over ${(load.now() / 1000).toFixed(1)} s, ${load.failures().length} failed`;
  }

  /** The log lines at error level or above of every process started, for a failure's message. */
  function serverErrors(): string {
    const lines = running.flatMap((server) => `${server.stdout()}\n${server.stderr()}`.split('\n'));
    return lines.filter((line) => /"level":(5|6)0/.test(line)).join('\n');
  }

  /** Every acknowledged write is there, read straight from a process. */
  async function assertWritesKept(load: Load, server: ServerProcess): Promise<void> {
    for (const id of load.created.posts) {
      const res = await fetch(`${server.baseUrl}/v1/blog/posts/${id}`, { headers: { authorization: `Bearer ${key}` } });
      const body = await res.text();
      assert.equal(res.status, 200, `post ${id}: ${body}`);
    }
    for (const path of load.created.images) {
      const res = await fetch(`${server.baseUrl}${path}`);
      assert.equal(res.status, 200, `image ${path}`);
      await res.arrayBuffer();
    }
  }

  for (const name of BALANCERS) {
    it(
      `${name}: a rolling restart with SIGTERM fails no request and keeps every acknowledged write`,
      { skip },
      async () => {
        const { ports, servers } = await startFleet();
        const balancer = await startBalancer(name, ports);
        const load = startLoad(balancer.baseUrl, balancer.ca, key, jpeg, CLIENTS);
        try {
          await moreAnswers(load, 50);
          for (let i = 0; i < servers.length; i++) {
            assert.equal(await servers[i].stop('SIGTERM'), 0, servers[i].stderr());
            servers[i] = await startOn(ports[i]);
            await inRotation(servers[i]);
          }
          await moreAnswers(load, 50);
        } finally {
          await load.stop();
          await balancer.close();
        }
        console.log(summary(name, 'rolling restart', load));
        for (const failure of load.failures().slice(0, 20)) console.log(`  failed: ${JSON.stringify(failure)}`);
        if (load.failures().length > 0) console.log(serverErrors());
        assert.equal(load.failures().length, 0, balancer.log());
        assert.ok(load.created.posts.length > 0 && load.created.images.length > 0);
        await assertWritesKept(load, servers[0]);
        for (const server of servers) await server.stop();
      },
    );

    it(`${name}: kill -9 of one process fails only requests that were inside it`, { skip }, async () => {
      const { ports, servers } = await startFleet();
      const balancer = await startBalancer(name, ports);
      const load = startLoad(balancer.baseUrl, balancer.ca, key, jpeg, CLIENTS);
      let killedAt: number;
      let deadAt: number;
      try {
        await moreAnswers(load, 50);
        killedAt = load.now();
        await servers[1].kill();
        // The exit as this process hears of it: the dead process was gone by then, maybe earlier.
        deadAt = load.now();
        await moreAnswers(load, 200);
        servers[1] = await startOn(ports[1]);
        await inRotation(servers[1]);
        await moreAnswers(load, 50);
      } finally {
        await load.stop();
        await balancer.close();
      }
      console.log(summary(name, 'kill -9', load));
      for (const failure of load.failures().slice(0, 20))
        console.log(`  failed: ${JSON.stringify(failure)} (SIGKILL sent at ${killedAt} ms, exit seen at ${deadAt} ms)`);
      // A failed request was sent before the process was gone (it was inside it: SIGKILL takes
      // effect, and its exit is heard of, a little after it is sent, more on a busy machine); at
      // most one per client, as each client has one request in flight.
      // Caddy cannot send a body again (deploy/Caddyfile), so a write that reaches the dead
      // process before Caddy has counted a failure of it fails too, answered 502 at once: the
      // first failure takes the process out, and the active check does within one interval.
      for (const failure of load.failures()) {
        const why = `a request sent after the process was gone failed: ${JSON.stringify(failure)}`;
        if (failure.at <= deadAt) continue;
        assert.equal(name, 'caddy', why);
        assert.ok(failure.op !== 'read' && failure.status === 502, why);
        assert.ok(failure.at <= deadAt + CADDY_CHECK_INTERVAL_MS, why);
      }
      assert.ok(load.failures().length <= CLIENTS);
      await assertWritesKept(load, servers[0]);
      for (const server of servers) await server.stop();
    });
  }
});
