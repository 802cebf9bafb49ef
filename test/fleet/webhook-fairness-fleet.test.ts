// Webhook fairness across real server processes on one PostgreSQL database: while one store's
// ten endpoints accept connections and never answer, another store's deliveries still go out in
// the first poll that finds them due (docs/webhooks.md, "Fairness"), both while the hanging sends
// hold their store's slots and after they time out and the store's next deliveries take them.
// The processes run on the real clock and their own 10-second send timeout, so the test waits
// for what they do (arrivals at the receivers), never for a length of time.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeOnPostgres } from '../helpers/engines.js';
import { send } from '../helpers/fetch-response.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startHangingReceiver, startReceiver } from '../helpers/webhook-receiver.js';
import { POLL_INTERVAL_MS } from '../../src/modules/webhooks/index.js';
import { STORE_CONCURRENCY } from '../../src/modules/webhooks/delivery-claim.js';

/** From a write to its delivery: the next poll (POLL_INTERVAL_MS) plus the time to claim and send. */
const DELIVERED_WITHIN_MS = 2 * POLL_INTERVAL_MS;
const PROCESSES = 3;

describeOnPostgres('webhook fairness across server processes on one PostgreSQL', (postgres) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
  });
  after(() => t?.close());

  it('one store’s 10 hanging endpoints never hold another store’s delivery past the next poll', async () => {
    const servers: ServerProcess[] = [];
    const hanging = await startHangingReceiver();
    const rx = await startReceiver();
    try {
      for (let i = 0; i < PROCESSES; i++)
        servers.push(
          await startServerProcess({ DATABASE_URL: t.config.database.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }),
        );
      const server = (i: number) => servers[i % PROCESSES].baseUrl;
      const limits = { writePerMinute: 1000, concurrency: 100 };

      const a = await t.createStore();
      const aKey = await t.issueKey(a, ['write_blog', 'manage_webhooks'], limits);
      for (let i = 0; i < 10; i++) {
        const created = await send(server(i), 'POST', '/v1/webhooks', {
          key: aKey,
          body: { url: `${hanging.base}/a${i}`, events: ['*'] },
        });
        assert.equal(created.statusCode, 201, created.body);
      }
      // 50 deliveries for A: far more than its slots, so A always has some due.
      for (let i = 0; i < 5; i++) {
        const post = await send(server(i), 'POST', '/v1/blog/posts', {
          key: aKey,
          body: { title: `A ${i}`, body_html: '<p>a</p>' },
          headers: { 'idempotency-key': `a-${i}` },
        });
        assert.equal(post.statusCode, 201, post.body);
      }

      const b = await t.createStore();
      const bKey = await t.issueKey(b, ['write_blog', 'manage_webhooks'], limits);
      const endpoint = await send(server(0), 'POST', '/v1/webhooks', {
        key: bKey,
        body: { url: rx.url, events: ['post.created'] },
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);

      let written = 0;
      /** B writes through each process in turn; its post.created must arrive within the bound. */
      const bWritesAndIsDelivered = async () => {
        const i = written++;
        const before = rx.received.length;
        const start = performance.now();
        const post = await send(server(i), 'POST', '/v1/blog/posts', {
          key: bKey,
          body: { title: `B ${i}`, body_html: '<p>b</p>' },
          headers: { 'idempotency-key': `b-${i}` },
        });
        assert.equal(post.statusCode, 201, post.body);
        const deadline = start + DELIVERED_WITHIN_MS;
        while (rx.received.length === before && performance.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 10));
        const arrived = rx.received[before];
        assert.ok(arrived, `B's write ${i} was not delivered within ${DELIVERED_WITHIN_MS} ms of the write`);
        assert.deepEqual([arrived.json.type, arrived.json.data.id], ['post.created', post.json().id]);
      };

      // A's sends hang, holding its slots in the fleet.
      await hanging.until(STORE_CONCURRENCY);
      for (let n = 0; n < PROCESSES * 2; n++) await bWritesAndIsDelivered();
      // A's first sends time out and its next deliveries take the slots again.
      await hanging.until(2 * STORE_CONCURRENCY);
      for (let n = 0; n < PROCESSES * 2; n++) await bWritesAndIsDelivered();
      assert.equal(rx.received.length, written, 'each of B’s events arrived once');
    } finally {
      for (const s of servers) await s.stop();
      await hanging.close();
      await rx.close();
    }
  });
});
