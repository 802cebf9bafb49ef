// Webhook delivery across real server processes on one PostgreSQL database, as behind a load
// balancer: every event reaches the receiver exactly once (claims are leased, one instance at a
// time under an advisory lock), a scheduled post's post.published is sent by exactly one process,
// and a process killed with SIGKILL between claim and answer does not lose its delivery.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describeOnPostgres } from '../helpers/engines.js';
import { send } from '../helpers/fetch-response.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { LEASE_MS } from '../../src/modules/webhooks/index.js';

/** Waits for a condition that other processes bring about (not a time rule: the processes run on the real clock). */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeOnPostgres('webhooks across server processes on one PostgreSQL', (postgres) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
  });
  after(() => t?.close());

  const call = (
    base: string,
    key: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    send(base, method, path, { key, body, headers }).then((r) => ({
      status: r.statusCode,
      body: r.body ? r.json() : undefined,
    }));
  const startServer = (databaseUrl: string) =>
    startServerProcess({ DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });

  it('three processes deliver each event exactly once, a scheduled post’s post.published included', async () => {
    const servers: ServerProcess[] = [];
    const rx: Receiver = await startReceiver();
    try {
      for (let i = 0; i < 3; i++) servers.push(await startServer(t.config.database.url));
      const store = await t.createStore();
      const key = await t.issueKey(store, ['write_blog', 'publish_blog', 'manage_webhooks'], {
        writePerMinute: 1000,
        concurrency: 100,
      });
      const endpoint = await call(servers[0].baseUrl, key, 'POST', '/v1/webhooks', { url: rx.url, events: ['*'] });
      assert.equal(endpoint.status, 201);

      const posts = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          call(
            servers[i % 3].baseUrl,
            key,
            'POST',
            '/v1/blog/posts',
            { title: `Fleet ${i}`, body_html: `<p>${i}</p>` },
            { 'idempotency-key': `fleet-${i}` },
          ),
        ),
      );
      assert.ok(posts.every((p) => p.status === 201));
      const due = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toISOString();
      const scheduled = await call(servers[1].baseUrl, key, 'POST', `/v1/blog/posts/${posts[0].body.id}/publish`, {
        published_at: due,
      });
      assert.equal(scheduled.body.status, 'scheduled');
      await Promise.all(
        posts
          .slice(1, 7)
          .map((p, i) => call(servers[i % 3].baseUrl, key, 'POST', `/v1/blog/posts/${p.body.id}/publish`)),
      );

      const expected = 24 + 1 + 6 + 1; // created, scheduled, published now, then the scheduled one going live
      await eventually('every event to arrive', async () => rx.received.length >= expected);
      await eventually('every delivery to be recorded', async () => {
        const open = await t.ctx.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('endpoint_id', '=', endpoint.body.id)
          .where('status', '!=', 'succeeded')
          .execute();
        return open.length === 0;
      });
      const rows = await t.ctx.db
        .selectFrom('webhook_deliveries')
        .select(['event_id', 'attempts'])
        .where('endpoint_id', '=', endpoint.body.id)
        .execute();
      assert.equal(rows.length, expected);
      assert.ok(
        rows.every((r) => r.attempts === 1),
        'each delivered in one attempt',
      );
      const ids = rx.received.map((r) => String(r.headers['webhook-id']));
      assert.equal(ids.length, expected, 'nothing arrived twice');
      assert.equal(new Set(ids).size, expected);
      const types = rx.received.map((r) => r.json.type);
      assert.deepEqual(
        [
          types.filter((x) => x === 'post.created').length,
          types.filter((x) => x === 'post.scheduled').length,
          types.filter((x) => x === 'post.published').length,
        ],
        [24, 1, 7],
      );
      const live = rx.received.find((r) => r.json.type === 'post.published' && r.json.data.id === posts[0].body.id)!;
      assert.equal(Date.parse(live.json.timestamp), Date.parse(due));
      for (const r of rx.received)
        new Webhook(endpoint.body.secret).verify(r.body, r.headers as Record<string, string>);
    } finally {
      for (const s of servers) await s.stop();
      await rx.close();
    }
  });

  it('a process killed with SIGKILL between claim and answer: the delivery is sent again after the lease expires', async () => {
    // A receiver that takes the first request and never answers it, then answers 200.
    const received: Array<{ id: string; body: string }> = [];
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    const hanging = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ id: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString() });
        if (received.length === 1) return firstArrived();
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
    const server = await startServer(t.config.database.url);
    try {
      const store = await t.createStore();
      const key = await t.issueKey(store, ['manage_webhooks']);
      const endpoint = await call(server.baseUrl, key, 'POST', '/v1/webhooks', { url, events: ['*'] });
      const queued = await call(server.baseUrl, key, 'POST', `/v1/webhooks/${endpoint.body.id}/test`);
      assert.equal(queued.status, 202);
      await arrived;
      await server.kill();
      const [claimed] = await t.ctx.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', queued.body.id)
        .execute();
      assert.deepEqual(
        [claimed.status, claimed.attempts, claimed.lease_token !== null],
        ['pending', 0, true],
        'claimed, no outcome recorded',
      );

      // Another instance (this process's, on the injected clock) takes it over once the lease is over.
      t.clock.set(Date.now());
      await t.ctx.webhookWorker.runOnce();
      assert.equal(received.length, 1, 'not while the dead process’s lease holds');
      t.clock.set(claimed.lease_until!);
      await t.ctx.webhookWorker.runOnce();
      assert.equal(received.length, 2);
      assert.equal(received[1].id, queued.body.event_id);
      assert.equal(received[1].body, received[0].body);
      const [done] = await t.ctx.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', queued.body.id)
        .execute();
      assert.deepEqual([done.status, done.attempts], ['succeeded', 1]);
      assert.ok(claimed.lease_until! - claimed.created_at <= LEASE_MS + 5000);
    } finally {
      await server.stop();
      hanging.closeAllConnections();
      await new Promise((r) => hanging.close(r));
    }
  });
});
