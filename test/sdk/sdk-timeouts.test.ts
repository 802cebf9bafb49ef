// The SDK's timeouts and cancellation against a server that accepts requests and never answers
// (a real HTTP server on a loopback port), and its handling of answers without the service's
// envelope (what a proxy in front of the service sends). The timeouts run on injected timers
// fired by the test once the server holds the request, so nothing waits for a time to pass.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BlogApiError,
  BlogClient,
  BlogConnectionError,
  type BlogClientOptions,
  type ResponseEvent,
  type Timers,
} from 'store-blog-sdk';

interface Held {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  res: ServerResponse;
}

/** A server that keeps every request without answering, unless `answer` returns a reply. */
type Reply = { status: number; headers: Record<string, string>; body: string };
async function silentServer(answer: (req: IncomingMessage) => Reply | null = () => null) {
  const held: Held[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    const reply = answer(req);
    if (reply) {
      res.writeHead(reply.status, reply.headers).end(reply.body);
    } else {
      held.push({
        method: req.method ?? '',
        url: req.url ?? '',
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        res,
      });
    }
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    held,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves once `n` requests have arrived in all. */
    async received(n: number, count: () => number = () => held.length) {
      while (count() < n) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Timers the test fires by hand: `fire()` runs every pending timeout. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  const asked: number[] = [];
  let next = 0;
  const timers: Timers = {
    setTimeout(callback, ms) {
      pending.set(++next, { callback, ms });
      asked.push(ms);
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    asked,
    fire() {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.callback();
    },
  };
}

const KEY = 'svc_live_abcdefghijkl_0123456789abcdefghijklmnopqrstuv';

describe('store-blog-sdk: timeouts, cancellation and answers without the envelope', () => {
  let server: Awaited<ReturnType<typeof silentServer>>;
  before(async () => {
    server = await silentServer((req): Reply | null => {
      if (req.url?.startsWith('/proxy-down/'))
        return {
          status: 503,
          headers: { 'content-type': 'text/html', 'x-request-id': 'req_from_the_proxy' },
          body: '<h1>503 Service Unavailable</h1>',
        };
      if (req.url?.startsWith('/bad-gateway/'))
        return { status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>502 Bad Gateway</h1>' };
      return null;
    });
  });
  after(() => server?.close());

  const sleeps: number[] = [];
  const client = (options: Partial<BlogClientOptions> = {}) => {
    sleeps.length = 0;
    return new BlogClient({
      baseUrl: server.url,
      apiKey: KEY,
      retry: { sleep: async (ms) => void sleeps.push(ms) },
      ...options,
    });
  };

  it('a GET that never gets an answer times out after timeoutMs (default 60 s), is retried, then raises BlogConnectionError', async () => {
    const clock = manualTimers();
    const sdk = client({ timers: clock.timers, maxRetries: 1 });
    const start = server.held.length;
    const call = sdk.me().catch((e: unknown) => e);
    await server.received(start + 1);
    clock.fire();
    await server.received(start + 2);
    assert.deepEqual(
      server.held.slice(start).map((h) => `${h.method} ${h.url}`),
      ['GET /v1/me', 'GET /v1/me'],
    );
    clock.fire();
    const err = await call;
    assert.ok(err instanceof BlogConnectionError, String(err));
    assert.deepEqual(
      [err.code, err.attempts, err.method, err.path, err.requestId],
      ['timeout', 2, 'GET', '/v1/me', null],
    );
    assert.equal(err.message, 'GET /v1/me: no answer within the timeout, after 2 attempts');
    assert.ok(err.cause instanceof DOMException && err.cause.name === 'TimeoutError', String(err.cause));
    assert.equal(err.cause.message, 'no answer within 60000 ms');
    assert.deepEqual(clock.asked, [60_000, 60_000], 'the default timeout, for each attempt');
    assert.equal(sleeps.length, 1);
  });

  it('per call timeoutMs overrides the client’s; a publish whose answer never came is not sent again', async () => {
    const clock = manualTimers();
    const sdk = client({ timers: clock.timers, timeoutMs: 30_000 });
    const start = server.held.length;
    const call = sdk.posts.publish(7, { timeoutMs: 1_500 }).catch((e: unknown) => e);
    await server.received(start + 1);
    clock.fire();
    const err = await call;
    assert.ok(err instanceof BlogConnectionError, String(err));
    assert.deepEqual([err.code, err.attempts], ['timeout', 1], 'the publish may have been done: not resent');
    assert.deepEqual(clock.asked, [1_500]);
    assert.equal(server.held.length, start + 1);
    assert.deepEqual(sleeps, []);
  });

  it('a create whose answer never came is resent with the same Idempotency-Key', async () => {
    const clock = manualTimers();
    const sdk = client({ timers: clock.timers, maxRetries: 1 });
    const start = server.held.length;
    const call = sdk.posts
      .create({ title: 'Never answered', body_html: '<p>x</p>' }, { idempotencyKey: 'import-2026-11-26-0001' })
      .catch((e: unknown) => e);
    await server.received(start + 1);
    clock.fire();
    await server.received(start + 2);
    clock.fire();
    assert.ok((await call) instanceof BlogConnectionError);
    assert.deepEqual(
      server.held.slice(start).map((h) => h.idempotencyKey),
      ['import-2026-11-26-0001', 'import-2026-11-26-0001'],
    );
  });

  it('with the real timers, a small timeoutMs ends the wait', async () => {
    const sdk = client({ timeoutMs: 50, maxRetries: 0 });
    const err = await sdk.posts.get(1).catch((e: unknown) => e);
    assert.ok(err instanceof BlogConnectionError && err.code === 'timeout', String(err));
  });

  it('an AbortSignal cancels the call in flight: it rejects with the signal’s reason and is not retried', async () => {
    const sdk = client({ maxRetries: 3 });
    const start = server.held.length;
    const controller = new AbortController();
    const call = sdk.posts.get(1, { signal: controller.signal }).catch((e: unknown) => e);
    await server.received(start + 1);
    controller.abort();
    const err = await call;
    assert.ok(err instanceof DOMException && err.name === 'AbortError', String(err));
    assert.equal(server.held.length, start + 1);
    assert.deepEqual(sleeps, []);

    const already = new AbortController();
    already.abort(new Error('shutting down'));
    await assert.rejects(sdk.me({ signal: already.signal }), /shutting down/);
    assert.equal(server.held.length, start + 1, 'nothing sent');
  });

  it('an AbortSignal also ends a wait between retries (the default sleep)', async () => {
    const proxy = `${server.url}/proxy-down`;
    const controller = new AbortController();
    const events: ResponseEvent[] = [];
    const sdk = new BlogClient({
      baseUrl: proxy,
      apiKey: KEY,
      maxRetryDelayMs: 60_000,
      retry: { baseDelayMs: 60_000, random: () => 0.99 },
      onResponse: (e) => {
        events.push(e);
        controller.abort(new Error('user left'));
      },
    });
    await assert.rejects(sdk.me({ signal: controller.signal }), /user left/);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.willRetry, true, 'it was about to wait about a minute');
  });

  it('a 503 without the envelope (refused by a proxy) is retried for any method; the error carries the request id', async () => {
    const sdk = client({ baseUrl: `${server.url}/proxy-down`, maxRetries: 2 });
    const err = await sdk.posts.publish(7).catch((e: unknown) => e);
    assert.ok(err instanceof BlogApiError, String(err));
    assert.deepEqual(
      [err.status, err.code, err.retryable, err.attempts, err.requestId],
      [503, 'unexpected_response', true, 3, 'req_from_the_proxy'],
    );
    assert.match(err.message, /^HTTP 503 without the service's error envelope: <h1>503/);
    assert.equal(sleeps.length, 2);
  });

  it('a 502 without the envelope (the work may have been done) is retried for a GET only', async () => {
    const sdk = client({ baseUrl: `${server.url}/bad-gateway`, maxRetries: 2 });
    const publish = await sdk.posts.publish(7).catch((e: unknown) => e);
    assert.ok(publish instanceof BlogApiError);
    assert.deepEqual([publish.status, publish.attempts], [502, 1]);
    const get = await sdk.posts.get(7).catch((e: unknown) => e);
    assert.ok(get instanceof BlogApiError);
    assert.deepEqual([get.status, get.attempts], [502, 3]);
  });

  it('refuses options that make no sense', () => {
    assert.throws(
      () => new BlogClient({ baseUrl: server.url, apiKey: KEY, timeoutMs: 0 }),
      /timeoutMs must be a number > 0/,
    );
    assert.throws(
      () => new BlogClient({ baseUrl: server.url, apiKey: KEY, maxRetries: -1 }),
      /maxRetries must be a number ≥ 0/,
    );
  });
});
