// Slow and idle clients on a real listening server (sockets matter here, so no inject() for the
// client under test): headers and JSON bodies must arrive within their times, an upload must keep
// a minimum pace but has no total limit, a cut request gives its in-flight slot back, connections
// that have not sent a complete request are capped, and idle keep-alive outlives the header limit.
// The limits are configured small; the tests wait for the server to act (a closed socket, an
// answer), never for a fixed time.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config/config.js';
import { assertError } from '../helpers/assertions.js';
import type { TestApp } from '../helpers/test-app.js';
import { watchSlots } from '../helpers/slot-watch.js';
import { multipartBody, uniqueJpeg } from './media-support.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '400',
  HTTP_BODY_TIMEOUT_MS: '800',
  HTTP_UPLOAD_IDLE_TIMEOUT_MS: '600',
  HTTP_UPLOAD_MIN_BYTES: '100',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '1200',
  HTTP_MAX_PENDING_CONNECTIONS: '6',
};

interface RawClient {
  socket: Socket;
  /** Everything the server sent. */
  received(): string;
  /** Resolves with the milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
}

function rawClient(port: number): RawClient {
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, received: () => data, closed };
}

/** Writes `bytes` one at a time every `everyMs` until the socket closes. */
function trickle(socket: Socket, bytes: Buffer, everyMs: number): () => void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= bytes.length) return clearInterval(timer);
    socket.write(bytes.subarray(i, i + 1));
    i++;
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
  return () => clearInterval(timer);
}

async function waitFor(what: string, condition: () => Promise<boolean> | boolean, deadlineMs = 10_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > until) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The slot is given back as the server handles the closed connection, which may be just after
 * the client sees it close: wait (bounded) for the key's next request to be served.
 */
async function slotGivenBack(t: TestApp, key: string): Promise<void> {
  let last = '';
  await waitFor(
    'the slot is given back',
    async () => {
      const res = await t.request({ method: 'GET', url: '/v1/blog/posts', key });
      last = res.body;
      return res.statusCode === 200;
    },
    3000,
  ).catch(() => assert.fail(`the key's slot was not given back: ${last}`));
}

/** Sends one complete request on a fresh connection and returns the status line's code. */
async function statusOf(port: number, request: string): Promise<number> {
  const client = rawClient(port);
  client.socket.write(request);
  await waitFor('an answer', () => /\r\n\r\n/.test(client.received()));
  client.socket.destroy();
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(client.received())?.[1]);
}

describe('default slow-client limits', () => {
  it('cut a client trickling one byte every 2 s within 60 s, JSON or upload', () => {
    const { ops } = loadConfig({});
    // A JSON body must be whole within its time, however it trickles.
    assert.ok(ops.bodyTimeoutMs <= 60_000, `body timeout ${ops.bodyTimeoutMs}`);
    // An upload at 0.5 byte/s brings fewer than the minimum in its first full interval, and the
    // sweep sees that within one more interval.
    const bytesPerInterval = ops.uploadIdleTimeoutMs / 2000;
    assert.ok(bytesPerInterval < ops.uploadMinBytes);
    assert.ok(2 * ops.uploadIdleTimeoutMs <= 60_000, `upload idle ${ops.uploadIdleTimeoutMs}`);
    // Idle keep-alive connections stay open longer than a load balancer's usual 60 s.
    assert.ok(ops.keepAliveTimeoutMs > 60_000);
  });
});

describeTenantApp('slow clients on a listening server', { env: LIMITS, tenant: false }, (suite) => {
  let port: number;
  before(async () => {
    await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (suite.t.app.server.address() as AddressInfo).port;
  });

  it('cuts a JSON body trickled a byte at a time and gives its in-flight slot back', async () => {
    const store = await suite.t.createStore();
    const key = await suite.t.issueKey(store, undefined, {
      concurrency: 1,
      readPerMinute: 10_000,
      writePerMinute: 10_000,
    });
    const body = Buffer.from(JSON.stringify({ title: 'Trickled', body_html: '<p>slow</p>' }));
    const slots = watchSlots(suite.t.ctx);
    const acquired = slots.acquired(key);
    const client = rawClient(port);
    client.socket.write(
      `POST /v1/blog/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    trickle(client.socket, body, 100);

    // The trickling request holds the key's only slot...
    await acquired;
    slots.restore();
    assertError(await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key }), 'concurrency_limited');
    // ...until the server closes its connection, without an answer.
    const closedAfter = await client.closed;
    assert.ok(closedAfter >= 800 && closedAfter < 5000, `closed after ${closedAfter} ms (the body would take 5 s)`);
    assert.equal(client.received(), '');

    await slotGivenBack(suite.t, key);
    const created = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key,
      headers: { 'idempotency-key': 'after-the-cut' },
      body: { title: 'After the cut', body_html: '<p>ok</p>' },
    });
    assert.equal(created.statusCode, 201, created.body);
  });

  it('closes the connection of a refusal sent before its body arrived, instead of waiting for the rest', async () => {
    for (const [path, type] of [
      ['/v1/blog/posts', 'application/json'],
      ['/v1/media/images', 'multipart/form-data; boundary=x'],
    ]) {
      const client = rawClient(port);
      client.socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: 1000\r\n\r\n`);
      trickle(client.socket, Buffer.alloc(1000, 0x20), 100);
      const closedAfter = await client.closed;
      assert.match(client.received(), /^HTTP\/1\.1 401 /);
      assert.match(client.received(), /\r\nConnection: close\r\n/i);
      assert.ok(closedAfter < 5000, `closed after ${closedAfter} ms (the body would take 100 s)`);
    }
  });

  it('cuts a client whose headers do not arrive in time', async () => {
    const client = rawClient(port);
    client.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n');
    const stop = trickle(client.socket, Buffer.from('X-Slow: 1111111111111111111111111111111111111111'), 50);
    const closedAfter = await client.closed;
    stop();
    assert.ok(
      closedAfter >= 400 && closedAfter < 2500,
      `closed after ${closedAfter} ms (the headers would take 2.5 s)`,
    );
    // Cut in the API's terms: incomplete input, named, then the connection closes.
    assert.match(client.received(), /^HTTP\/1\.1 422 /);
    assert.match(client.received(), /"field":"request","issue":"was not received completely in time"/);
  });

  it('cuts an upload that falls below the minimum pace and gives its slot back', async () => {
    const store = await suite.t.createStore({ media: true });
    const key = await suite.t.issueKey(store, undefined, {
      concurrency: 1,
      readPerMinute: 10_000,
      writePerMinute: 10_000,
    });
    const { payload, contentType } = multipartBody([
      { name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: await uniqueJpeg() },
    ]);
    const slots = watchSlots(suite.t.ctx);
    const acquired = slots.acquired(key);
    const client = rawClient(port);
    client.socket.write(
      `POST /v1/media/images HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    // About 50 bytes/s against a minimum of 100 bytes in every 600 ms.
    trickle(client.socket, payload, 20);
    await acquired;
    slots.restore();
    assertError(await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key }), 'concurrency_limited');
    const closedAfter = await client.closed;
    assert.ok(closedAfter < 5000, `closed after ${closedAfter} ms (the upload would take 10 s)`);
    assert.equal(client.received(), '');
    await slotGivenBack(suite.t, key);
  });

  it('lets an upload take longer than the JSON body time while it keeps the pace', async () => {
    const store = await suite.t.createStore({ media: true });
    const key = await suite.t.issueKey(store);
    const { payload, contentType } = multipartBody([
      { name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: await uniqueJpeg() },
    ]);
    const client = rawClient(port);
    const started = Date.now();
    client.socket.write(
      `POST /v1/media/images HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`,
    );
    // 25 bytes every 50 ms (about 500 bytes/s, five times the minimum pace), for over a second.
    for (let i = 0; i < payload.length; i += 25) {
      client.socket.write(payload.subarray(i, i + 25));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.closed;
    assert.ok(Date.now() - started > 800, 'the upload outlasted the JSON body time');
    assert.match(client.received(), /^HTTP\/1\.1 201 /);
  });

  it('refuses connections beyond the cap on those without a complete request, and serves again once they go', async () => {
    // Six silent connections fill the cap (no request sent, so none of them is served yet).
    const silent = Array.from({ length: 6 }, () => rawClient(port));
    await Promise.all(silent.map((c) => new Promise((resolve) => c.socket.once('connect', resolve))));
    await waitFor('six connections are pending', () => suite.t.app.connectionGuard.pendingConnections === 6);
    const refused = rawClient(port);
    refused.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
    await refused.closed;
    assert.equal(refused.received(), '');

    for (const c of silent) c.socket.destroy();
    await Promise.all(silent.map((c) => c.closed));
    await waitFor('the silent connections are gone', () => suite.t.app.connectionGuard.pendingConnections === 0);
    assert.equal(await statusOf(port, 'GET /livez HTTP/1.1\r\nHost: x\r\n\r\n'), 200);
  });

  it('keeps an idle keep-alive connection open past the header time, then closes it', async () => {
    const client = rawClient(port);
    client.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitFor('the answer', () => /\r\n\r\n\{"status":"alive"\}/.test(client.received()));
    const answeredAt = Date.now();
    const closedAfter = await client.closed;
    // Node closes an idle connection after keepAliveTimeout (plus its own one-second margin).
    assert.ok(
      Date.now() - answeredAt >= 1200,
      `idle connection closed after ${Date.now() - answeredAt} ms (header time is 400 ms)`,
    );
    assert.ok(closedAfter > 0);
  });
});
