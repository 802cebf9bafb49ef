// The server as a process: graceful shutdown on SIGTERM with an upload in flight, the drain, a second
// signal, MIGRATE_ON_START=false on a database that is behind, and the start-up warning for
// PostgreSQL without Redis. Each test runs `node --import tsx src/main.ts` with its own
// environment and waits on what the process says or does (log lines, closed ports, exit codes).
import { after, describe, it } from 'node:test';
import { Agent, request } from 'node:http';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { postgresEngine } from '../helpers/engines.js';
import { startServerProcess, spawnMain, waitUntilRefused, type ServerProcess } from '../helpers/server-process.js';
import { requestInFlight, startSlowUpload } from '../helpers/slow-upload.js';

const started: ServerProcess[] = [];
const dirs: string[] = [];
after(async () => {
  for (const server of started) await server.kill();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blogapi-proc-'));
  dirs.push(dir);
  return dir;
}

async function sqliteServer(
  env: Record<string, string> = {},
): Promise<{ server: ServerProcess; key: string; dbFile: string }> {
  const dir = freshDir();
  const dbFile = join(dir, 'blog.db');
  const server = await startServerProcess({ DATABASE_URL: `sqlite:${dbFile}`, ...env });
  started.push(server);
  // The first start on a new database creates the demo store and prints its key once.
  const key = /svc_live_[A-Za-z0-9_]+/.exec(server.stdout())?.[0];
  assert.ok(key, `demo key in: ${server.stdout()}`);
  return { server, key, dbFile };
}

/** An upload in flight: admitted, as the server's metrics show. */
const startUploadOn = (server: ServerProcess, key: string) =>
  startSlowUpload(server.port, key, () => requestInFlight(server.baseUrl));

/** A GET through a node:http agent: whether it went on a kept-alive socket, and the answer's Connection header. */
function get(
  agent: Agent,
  server: ServerProcess,
  path: string,
  key: string,
): Promise<{ status: number; reused: boolean; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.baseUrl}${path}`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode!, reused: req.reusedSocket, connection: res.headers.connection }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function json(
  server: ServerProcess,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.baseUrl}${path}`, init);
  return { status: res.status, body: await res.json() };
}

describe('graceful shutdown of a server process', () => {
  it('on SIGTERM stops accepting, lets the upload in flight finish, flushes page views and exits 0', async () => {
    const { server, key, dbFile } = await sqliteServer({ SHUTDOWN_GRACE_MS: '20000' });
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    // A published post with one page view still counted in memory when the signal arrives.
    const created = await json(server, '/v1/blog/posts', {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': 'shutdown-post' },
      body: JSON.stringify({ title: 'Shutdown', body_html: '<p>bye</p>' }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const published = await json(server, `/v1/blog/posts/${created.body.id}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    const page = await fetch(`${server.baseUrl}/s/demo/blog/posts/${created.body.id}`);
    assert.equal(page.status, 200);
    await page.text();
    // The view as a browser reports it: the page's beacon.
    const beacon = await fetch(`${server.baseUrl}/s/demo/blog/posts/${created.body.id}/views`, {
      method: 'POST',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' },
    });
    assert.equal(beacon.status, 204);

    const upload = await startUploadOn(server, key);
    server.child.kill('SIGTERM');
    await server.waitForOutput(/"msg":"shutting down"/);
    await waitUntilRefused(server.port);

    const answer = await upload.finish();
    assert.match(answer, /^HTTP\/1\.1 201 /, answer);
    assert.match(answer, /\r\nconnection: close\r\n/i, 'the last answer closes its connection');
    assert.equal(await server.exited, 0, server.stderr());

    const db = new BetterSqlite3(dbFile, { readonly: true });
    try {
      assert.equal((db.prepare('SELECT count(*) AS n FROM images').get() as { n: number }).n, 1);
      assert.equal(
        (db.prepare('SELECT view_count FROM posts WHERE id = ?').get(created.body.id) as { view_count: number })
          .view_count,
        1,
      );
    } finally {
      db.close();
    }
  });

  it('on SIGTERM drains: /readyz fails at once, kept-alive and new connections are served with Connection: close, then the listener closes', async () => {
    const { server, key } = await sqliteServer({ SHUTDOWN_DRAIN_MS: '4000' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // A connection kept alive from before the signal, idle when it arrives.
      const before = await get(agent, server, '/v1/me', key);
      assert.equal(before.status, 200);
      assert.equal(before.connection, 'keep-alive');

      server.child.kill('SIGTERM');
      await server.waitForOutput(/"msg":"draining: \/readyz fails, requests are still served"/);
      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 503);
      assert.equal((await ready.json()).checks.shutdown.reason, 'shutting_down');
      // The idle connection was not closed under a request that may be on its way: it is
      // answered, and closed after that answer.
      const kept = await get(agent, server, '/v1/me', key);
      assert.equal(kept.status, 200);
      assert.equal(kept.reused, true);
      assert.equal(kept.connection, 'close');
      // A new connection is still accepted and served during the drain.
      const fresh = await get(agent, server, '/v1/blog/posts', key);
      assert.equal(fresh.status, 200);
      assert.equal(fresh.reused, false);
      assert.equal(fresh.connection, 'close');

      await waitUntilRefused(server.port);
      assert.equal(await server.exited, 0, server.stderr());
      assert.match(server.stdout(), /"drainMs":4000/);
    } finally {
      agent.destroy();
    }
  });

  it('exits at once on a second signal, without waiting for the upload', async () => {
    const { server, key } = await sqliteServer({ SHUTDOWN_GRACE_MS: '60000' });
    const upload = await startUploadOn(server, key);
    server.child.kill('SIGTERM');
    await server.waitForOutput(/"msg":"shutting down"/);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 1);
    await upload.closed;
    assert.equal(upload.answer(), '', 'the unfinished upload got no answer');
  });

  it('cuts requests still in flight when the grace period ends, and exits 1', async () => {
    const { server, key } = await sqliteServer({ SHUTDOWN_GRACE_MS: '300' });
    const upload = await startUploadOn(server, key);
    server.child.kill('SIGINT');
    assert.equal(await server.exited, 1);
    await upload.closed;
    assert.equal(upload.answer(), '');
    assert.match(server.stdout(), /still in flight after the shutdown grace period/);
  });
});

describe('start-up settings of a server process', () => {
  it('with MIGRATE_ON_START=false refuses to start on a database that has not been migrated', async () => {
    const dir = freshDir();
    const spawned = spawnMain({ DATABASE_URL: `sqlite:${join(dir, 'blog.db')}`, MIGRATE_ON_START: 'false' });
    assert.equal(await spawned.exited, 1);
    assert.match(
      spawned.stderr(),
      /MIGRATE_ON_START=false and the database has not run migrations 0001-initial[^\n]*: run `blog-api migrate` first/,
    );
  });

  it('lists every bad operations setting at once', async () => {
    const spawned = spawnMain({
      DATABASE_URL: `sqlite:${join(freshDir(), 'blog.db')}`,
      METRICS: 'maybe',
      SHUTDOWN_GRACE_MS: '-1',
      DATABASE_POOL_MAX: '0',
      MIGRATE_ON_START: 'yes',
    });
    assert.equal(await spawned.exited, 1);
    const stderr = spawned.stderr();
    assert.match(stderr, /Invalid configuration:/);
    assert.match(stderr, /METRICS must be on or off \(got "maybe"\)/);
    assert.match(stderr, /SHUTDOWN_GRACE_MS must be an integer from 0 to 3600000 \(got "-1"\)/);
    assert.match(stderr, /DATABASE_POOL_MAX must be an integer from 1 to 1000 \(got "0"\)/);
    assert.match(stderr, /MIGRATE_ON_START must be true or false \(got "yes"\)/);
  });

  it(
    'on PostgreSQL without REDIS_URL warns loudly that limits are per process, and /readyz says so (still ready)',
    { skip: postgresEngine.skip },
    async () => {
      const { database, drop } = await postgresEngine.create();
      try {
        const server = await startServerProcess({ DATABASE_URL: database.url, MEDIA_DIR: join(freshDir(), 'media') });
        started.push(server);
        assert.match(
          server.stderr(),
          /WARNING: REDIS_URL is not set: rate, concurrency and in-flight limits are counted per process/,
        );
        assert.match(server.stdout(), /"level":40[^\n]*REDIS_URL is not set/);
        const ready = await json(server, '/readyz');
        assert.equal(ready.status, 200);
        assert.equal(ready.body.status, 'ready');
        assert.deepEqual(ready.body.checks.redis, { status: 'not_configured' });
        assert.deepEqual(ready.body.warnings, [
          'REDIS_URL is not set: rate, concurrency and in-flight limits are counted per process, so N processes allow N times the limits',
        ]);
        server.child.kill('SIGTERM');
        assert.equal(await server.exited, 0, server.stderr());
      } finally {
        await drop();
      }
    },
  );
});
