// Races across real server processes sharing one PostgreSQL database, as behind a load balancer:
// identical creates with one Idempotency-Key, duplicates with different keys, and the quota.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { engineTargets } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const postgres = (await engineTargets()).find((e) => e.name === 'postgres')!;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `src/main.ts` as its own process and resolves once it listens. */
async function startServer(databaseUrl: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    // Readiness only (not a time rule): the server is up once it answers HTTP.
    const probe = async (attempt: number): Promise<void> => {
      try {
        await fetch(`http://127.0.0.1:${port}/v1/me`);
        resolve();
      } catch {
        if (attempt > 300) return reject(new Error(`server did not start: ${output}`));
        setTimeout(() => void probe(attempt + 1), 50);
      }
    };
    void probe(0);
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

describe('races across three server processes on one PostgreSQL [postgres]', { skip: postgres.skip }, () => {
  let t: TestApp;
  const servers: Array<{ base: string; child: ChildProcess }> = [];
  before(async () => {
    t = await startTestApp(postgres);
    for (let i = 0; i < 3; i++) servers.push(await startServer(t.config.database.url));
  });
  after(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once('exit', r)));
    }
    await t?.close();
  });

  const create = (i: number, key: string, idem: string, body: unknown) =>
    fetch(`${servers[i % servers.length].base}/v1/blog/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': idem, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const postCount = async (storeId: number) => (await t.ctx.db.selectFrom('posts').select('id').where('store_id', '=', storeId).execute()).length;

  it('N identical creates with one Idempotency-Key make exactly one post', async () => {
    const store = await t.createStore();
    const key = await t.issueKey(store, undefined, { writePerMinute: 1000, concurrency: 100 });
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => create(i, key, 'same-key', { title: 'One', body_html: '<p>one</p>' })));
    const created = results.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    assert.equal(new Set(created.map((r) => r.body.id)).size, 1);
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 409);
      assert.equal(r.body.error.code, 'idempotency_in_progress');
    }
    assert.equal(await postCount(store.id), 1);
  });

  it('duplicate content with different keys makes exactly one post', async () => {
    const store = await t.createStore();
    const key = await t.issueKey(store, undefined, { writePerMinute: 1000, concurrency: 100 });
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => create(i, key, `k-${i}`, { title: 'Twin', body_html: '<p>twin</p>' })));
    const created = results.filter((r) => r.status === 201);
    assert.equal(created.length, 1, JSON.stringify(results.map((r) => r.status)));
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.body.error.code, 'duplicate_content');
      assert.deepEqual(r.body.error.details, [{ field: 'post_id', issue: String(created[0].body.id) }]);
    }
    assert.equal(await postCount(store.id), 1);
  });

  it('the daily quota holds exactly', async () => {
    const store = await t.createStore({ changes: { posts_per_day: 4 } });
    const key = await t.issueKey(store, undefined, { writePerMinute: 1000, concurrency: 100 });
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => create(i, key, `q-${i}`, { title: `Q${i}`, body_html: `<p>${i}</p>` })));
    assert.equal(results.filter((r) => r.status === 201).length, 4, JSON.stringify(results.map((r) => r.status)));
    assert.ok(results.filter((r) => r.status !== 201).every((r) => r.status === 429 && r.body.error.code === 'quota_exceeded'));
    assert.equal(await postCount(store.id), 4);
  });
});
