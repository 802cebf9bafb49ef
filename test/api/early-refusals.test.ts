// A refusal answered before its request's body arrived reaches a client that is still sending
// the body: the server answers with Connection: close, keeps reading and dropping the rest of
// the body for a bounded time and size (a lingering close), then closes. Real sockets and
// Node's fetch, on fresh and kept-alive connections; bodies up to the largest allowed size.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { assertError } from '../helpers/assertions.js';
import { readResponse, type FetchedResponse } from '../helpers/fetch-response.js';
import { watchSlots } from '../helpers/slot-watch.js';
import type { ErrorCode } from '../../src/lib/error-catalogue.js';
import { multipartBody } from './media-support.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import { LINGERING_REFUSALS_PER_MINUTE } from '../../src/http/linger-allowance.js';

/** The largest JSON body, small so that bodies of exactly that size stay quick. */
const MAX_JSON = 256 * 1024;
/** The largest image a store allows by default (stores.image_max_bytes). */
const MAX_IMAGE = 10 * 1024 * 1024;
const ENV = { MAX_JSON_BODY_BYTES: String(MAX_JSON), HTTP_BODY_TIMEOUT_MS: '5000' };

interface Body {
  payload: Buffer;
  contentType: string;
}

/** A JSON post of exactly `bytes` bytes. */
function jsonBody(bytes: number): Body {
  const skeleton = JSON.stringify({ title: 'Refused', body_html: '' });
  const html = '<p>' + 'x'.repeat(bytes - skeleton.length - 7) + '</p>';
  const payload = Buffer.from(JSON.stringify({ title: 'Refused', body_html: html }));
  assert.equal(payload.length, bytes);
  return { payload, contentType: 'application/json' };
}

/** A multipart upload whose file is `bytes` long. */
function uploadBody(bytes: number): Body {
  return multipartBody([{ name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.alloc(bytes, 7) }]);
}

/** The body sent in 64 KiB pieces, each after the event loop turns, as a client on a real link would. */
function streamed(payload: Buffer): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at >= payload.length) return controller.close();
      controller.enqueue(payload.subarray(at, at + 65_536));
      at += 65_536;
      await new Promise((resolve) => setImmediate(resolve));
    },
  });
}

describeTenantApp('early refusals reach the client', { env: ENV, tenant: false }, (suite) => {
  let base: string;
  let connections = 0;
  before(async () => {
    await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(suite.t.app.server.address() as AddressInfo).port}`;
    suite.t.app.server.on('connection', () => connections++);
  });

  async function post(path: string, key: string, body: Body, stream: boolean): Promise<FetchedResponse> {
    const init = {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': body.contentType },
      body: stream ? streamed(body.payload) : body.payload,
      duplex: 'half',
    } as RequestInit;
    return readResponse(await fetch(`${base}${path}`, init));
  }

  /**
   * The refusal through fetch (the body sent whole and streamed), and through node:http on a
   * fresh connection and on a kept-alive one (a read opens it; the refusal must not open another).
   */
  async function assertRefused(
    path: string,
    key: string,
    body: Body,
    code: ErrorCode,
    details: Array<{ field: string; issue: string }> = [],
  ) {
    for (const stream of [false, true]) {
      const res = await post(path, key, body, stream);
      assertError(res, code, details);
      assert.equal(res.headers.connection, 'close');
    }
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const fresh = await httpPost(agent, path, key, body);
      assertError(fresh, code, details);
      assert.equal(fresh.reused, false);
      const read = await httpGet(agent, '/livez');
      assert.equal(read.statusCode, 200);
      const before = connections;
      const kept = await httpPost(agent, path, key, body);
      assertError(kept, code, details);
      assert.equal(kept.reused, true, 'the refusal went on the kept-alive connection');
      assert.equal(connections, before);
    } finally {
      agent.destroy();
    }
  }

  function httpPost(agent: Agent, path: string, key: string, body: Body) {
    return httpSend(
      agent,
      'POST',
      path,
      {
        authorization: `Bearer ${key}`,
        'content-type': body.contentType,
        'content-length': String(body.payload.length),
      },
      body.payload,
    );
  }

  function httpGet(agent: Agent, path: string) {
    return httpSend(agent, 'GET', path, {});
  }

  function httpSend(
    agent: Agent,
    method: string,
    path: string,
    headers: Record<string, string>,
    payload?: Buffer,
  ): Promise<FetchedResponse & { reused: boolean }> {
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const body = raw.toString('utf8');
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) flat[name] = String(value);
          resolve({
            statusCode: res.statusCode!,
            headers: flat,
            body,
            rawPayload: raw,
            json: () => JSON.parse(body),
            reused: req.reusedSocket,
          });
        });
      });
      req.on('error', reject);
      // Written in 64 KiB pieces as the socket takes them, so most of the body is still to come
      // when the answer arrives.
      if (payload) {
        let at = 0;
        const next = () => {
          while (at < payload.length) {
            const piece = payload.subarray(at, at + 65_536);
            at += piece.length;
            if (!req.write(piece)) return void req.once('drain', next);
          }
          req.end();
        };
        next();
      } else req.end();
    });
  }

  it('answers a bad key, for an upload of the largest image and a JSON body of the largest size', async () => {
    await assertRefused('/v1/media/images', 'svc_live_not-a-key', uploadBody(MAX_IMAGE), 'unauthorized');
    await assertRefused('/v1/blog/posts', 'svc_live_not-a-key', jsonBody(MAX_JSON), 'unauthorized');
  });

  it('answers an uncertified store and paused writes', async () => {
    const uncertified = await suite.t.createStore({ certified: false, media: true });
    const paused = await suite.t.createStore({ media: true, changes: { writes_paused: 1 } });
    for (const [store, code] of [
      [uncertified, 'tenant_not_certified'],
      [paused, 'tenant_schema_changed'],
    ] as const) {
      const key = await suite.t.issueKey(store);
      await assertRefused('/v1/media/images', key, uploadBody(1024 * 1024), code);
      await assertRefused('/v1/blog/posts', key, jsonBody(MAX_JSON), code);
    }
  });

  it('answers the per-minute limit', async () => {
    const store = await suite.t.createStore({ media: true });
    const key = await suite.t.issueKey(store, undefined, { writePerMinute: 1 });
    const first = await readResponse(
      await fetch(`${base}/v1/blog/categories`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }),
    );
    assert.notEqual(first.statusCode, 429, first.body);
    await assertRefused('/v1/media/images', key, uploadBody(1024 * 1024), 'rate_limited');
    await assertRefused('/v1/blog/posts', key, jsonBody(MAX_JSON), 'rate_limited');
  });

  it('answers the in-flight limit', async () => {
    const store = await suite.t.createStore({ media: true });
    const key = await suite.t.issueKey(store, undefined, {
      concurrency: 1,
      readPerMinute: 10_000,
      writePerMinute: 10_000,
    });
    // An upload whose body never comes holds the key's only slot.
    const slots = watchSlots(suite.t.ctx);
    const acquired = slots.acquired(key);
    const holder = connect(Number(new URL(base).port), '127.0.0.1');
    holder.on('error', () => undefined);
    holder.write(
      `POST /v1/media/images HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n`,
    );
    await acquired;
    try {
      await assertRefused('/v1/media/images', key, uploadBody(1024 * 1024), 'concurrency_limited');
      await assertRefused('/v1/blog/posts', key, jsonBody(MAX_JSON), 'concurrency_limited');
    } finally {
      holder.destroy();
      await slots.until(
        'the held slot is given back',
        () => slots.held(key.slice('svc_live_'.length, 'svc_live_'.length + 8)) === 0,
      );
      slots.restore();
    }
  });

  it('answers a body above the largest JSON size', async () => {
    const { key } = await suite.t.tenant();
    const details = [{ field: 'body', issue: 'exceeds the size this endpoint accepts' }];
    await assertRefused('/v1/blog/posts', key, jsonBody(MAX_JSON + 1), 'content_too_large', details);
  });

  // Bounded: should the refusal not come, the client waits for it forever; that must fail this
  // test, not stall the suite.
  it(
    'keeps reading the rest of a refused body, then closes: the client never meets a reset',
    { timeout: 60_000 },
    async () => {
      const { key } = await suite.t.tenant({ media: true });
      const store = await suite.t.createStore({ certified: false, media: true });
      const uncertifiedKey = await suite.t.issueKey(store);
      // A key one character off (never the key itself: a key already ending in 0 would be valid,
      // its upload would wait for a body the client holds back, and the test would hang).
      const wrongKey = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
      for (const k of [wrongKey, uncertifiedKey]) {
        const client = rawClient(base);
        const rest = Buffer.alloc(2 * 1024 * 1024, 7);
        client.socket.write(
          `POST /v1/media/images HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${k}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${rest.length + 10}\r\n\r\n0123456789`,
        );
        await client.answered;
        assert.match(client.received(), /\r\nconnection: close\r\n/i);
        // The answer is out; the client goes on sending the body it announced, all of it accepted.
        for (let at = 0; at < rest.length; at += 65_536) await write(client.socket, rest.subarray(at, at + 65_536));
        client.socket.end();
        await client.closed;
        assert.equal(client.error(), null);
      }
    },
  );

  it('cuts a client that keeps sending past the largest body, and gives its slot back', async () => {
    const store = await suite.t.createStore({ changes: { writes_paused: 1 } });
    const key = await suite.t.issueKey(store, undefined, {
      concurrency: 1,
      readPerMinute: 10_000,
      writePerMinute: 10_000,
    });
    const client = rawClient(base);
    client.socket.write(
      `POST /v1/blog/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{`,
    );
    await client.answered;
    assert.match(client.received(), /^HTTP\/1\.1 503 /);
    let sent = 0;
    const piece = Buffer.alloc(16 * 1024, 0x20);
    while (!client.isClosed()) {
      if (!(await write(client.socket, piece))) break;
      sent += piece.length;
      assert.ok(sent < 200 * MAX_JSON, `still accepted after ${sent} bytes`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await client.closed;
    assert.ok(sent >= MAX_JSON, `cut after ${sent} bytes, before the largest body`);
    // The slot went back with the answer: the key's one slot serves the next request.
    const next = await readResponse(
      await fetch(`${base}/v1/blog/posts`, { headers: { authorization: `Bearer ${key}` } }),
    );
    assert.equal(next.statusCode, 200, next.body);
  });
});

describeTenantApp('early refusals of a key that keeps sending', { env: ENV, tenant: false }, (suite) => {
  it(`reads and drops a key's refused bodies ${LINGERING_REFUSALS_PER_MINUTE} times a minute, then closes at once after the answer`, async () => {
    await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(suite.t.app.server.address() as AddressInfo).port}`;
    const store = await suite.t.createStore({ changes: { writes_paused: 1 } });
    const key = await suite.t.issueKey(store, undefined, { readPerMinute: 10_000, writePerMinute: 10_000 });
    const events: string[] = [];
    const stop = suite.t.app.connectionGuard.onEvent((event) => events.push(event));
    const started = suite.t.clock.now().toISOString();
    /** A refused body sent on: how much the server took before closing, and whether the answer came. */
    const refusal = async () => {
      const client = rawClient(base);
      client.socket.write(
        `POST /v1/blog/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_JSON}\r\n\r\n{`,
      );
      await client.answered;
      assert.match(client.received(), /^HTTP\/1\.1 503 /);
      assert.match(client.received(), /\r\nconnection: close\r\n/i);
      let sent = 1;
      const piece = Buffer.alloc(16 * 1024, 0x20);
      while (sent < MAX_JSON) {
        const next = piece.subarray(0, Math.min(piece.length, MAX_JSON - sent));
        if (!(await write(client.socket, next))) break;
        sent += next.length;
      }
      client.socket.end();
      await client.closed;
      return { sent, error: client.error() };
    };
    try {
      for (let i = 0; i < LINGERING_REFUSALS_PER_MINUTE; i++)
        assert.deepEqual(await refusal(), { sent: MAX_JSON, error: null }, `refusal ${i + 1} lingers`);
      assert.deepEqual(events, []);
      const unread = await refusal();
      assert.ok(unread.sent < MAX_JSON, `the server closed at once: the client sent ${unread.sent} bytes`);
      assert.notEqual(unread.error, null, 'the client met the closed connection');
      assert.deepEqual(events, ['closed_refusal_unread']);
      // A minute later the key's refusals linger again.
      suite.t.clock.advance(60_000);
      assert.deepEqual(await refusal(), { sent: MAX_JSON, error: null });
      assert.deepEqual(events, ['closed_refusal_unread']);
    } finally {
      stop();
      suite.t.clock.set(started);
    }
  });
});

interface RawClient {
  socket: Socket;
  received(): string;
  /** Resolves once a whole answer (head and Content-Length body) has arrived. */
  answered: Promise<void>;
  closed: Promise<void>;
  isClosed(): boolean;
  error(): string | null;
}

function rawClient(base: string): RawClient {
  // Half-open allowed: the client goes on sending after the server's FIN, as a client still
  // writing its body does.
  const socket = connect({ port: Number(new URL(base).port), host: '127.0.0.1', allowHalfOpen: true });
  let data = '';
  let error: string | null = null;
  let closedNow = false;
  let onAnswer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (onAnswer = resolve));
  socket.on('data', (chunk) => {
    data += chunk.toString('latin1');
    const end = data.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(data)?.[1];
    if (end !== -1 && length !== undefined && data.length >= end + 4 + Number(length)) onAnswer();
  });
  socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedNow = true;
      resolve();
    }),
  );
  return { socket, received: () => data, answered, closed, isClosed: () => closedNow, error: () => error };
}

/** Writes and waits until the bytes are handed to the kernel; false if the connection failed. */
function write(socket: Socket, bytes: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed || !socket.writable) return resolve(false);
    socket.write(bytes, (err) => resolve(!err));
  });
}
