// Traffic control through HTTP: per-key read/write rate limits, the in-flight (concurrency)
// limit, their headers and error envelopes, the shared Redis backend across two app instances,
// failing open when Redis is down, and operator changes made with the CLI.
//
// No test sleeps: the memory backend runs on the injected clock (t.clock), and requests are held
// in flight on purpose by sending headers whose body never arrives; the tests then wait on the
// traffic state itself (a deterministic signal), never on elapsed time.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { runCli } from '../../src/cli/main.js';
import { createContext, type AppContext } from '../../src/context.js';
import { describeEachEngine } from '../helpers/engines.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertCommonHeaders, assertError } from '../helpers/assertions.js';
import { secondInstance } from '../helpers/second-instance.js';
import { keyIdOf, watchSlots } from '../helpers/slot-watch.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

// ---------------------------------------------------------------------------------------------
// Rate headers

function rateHeaders(res: LightMyRequestResponse | { headers: Record<string, unknown> }) {
  return {
    limit: res.headers['x-ratelimit-limit'],
    remaining: res.headers['x-ratelimit-remaining'],
    reset: res.headers['x-ratelimit-reset'],
  };
}

/** The three rate headers, exactly; `reset` is either the exact value or an inclusive range. */
function assertRate(
  res: LightMyRequestResponse,
  limit: number,
  remaining: number,
  reset: number | [number, number],
  what = '',
): void {
  const h = rateHeaders(res);
  assert.equal(h.limit, String(limit), `X-RateLimit-Limit ${what}`);
  assert.equal(h.remaining, String(remaining), `X-RateLimit-Remaining ${what}`);
  assert.match(String(h.reset), /^\d+$/, `X-RateLimit-Reset is whole Unix seconds ${what}`);
  const value = Number(h.reset);
  if (typeof reset === 'number') assert.equal(value, reset, `X-RateLimit-Reset ${what}`);
  else
    assert.ok(
      value >= reset[0] && value <= reset[1],
      `X-RateLimit-Reset ${value} within [${reset[0]}, ${reset[1]}] ${what}`,
    );
}

function assertNoRateHeaders(res: LightMyRequestResponse, what = ''): void {
  assert.deepEqual(
    rateHeaders(res),
    { limit: undefined, remaining: undefined, reset: undefined },
    `no rate headers ${what}`,
  );
}

/** Unix seconds at which a memory-backend window opened at `startMs` is full again. */
const resetFor = (startMs: number): number => Math.ceil((startMs + 60_000) / 1000);

// ---------------------------------------------------------------------------------------------
// The write route used for the write class: creating a post. Its outcome does not matter here
// (an empty body answers 422): every authenticated request counts, whatever its outcome. It also
// reads a JSON body after onRequest, so a request whose body never arrives stays in flight.

const WRITE = {
  method: 'POST',
  url: '/v1/blog/posts',
  headers: { 'idempotency-key': 'traffic-test' },
  body: '{}',
} as const;

function callWrite(app: FastifyInstance, key: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: WRITE.method,
    url: WRITE.url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...WRITE.headers },
    payload: WRITE.body,
  });
}

// ---------------------------------------------------------------------------------------------
// In-flight helpers

interface HeldRequest {
  req: ClientRequest;
  /** Settles with the response (status, headers) or the client error once the request ends. */
  outcome: Promise<{ status: number; headers: Record<string, unknown>; body: string } | Error>;
  /** Sends the rest of the body, so the request completes normally. */
  finish(): void;
  abort(): void;
}

const HELD_BODY_BYTES = 1000;

/**
 * Opens a real HTTP request to a write route and sends only its headers: the pipeline has run
 * onRequest (authenticated, counted, slot taken) and Fastify is now waiting for the body.
 */
function holdRequest(port: number, key: string): HeldRequest {
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: WRITE.method,
    path: WRITE.url,
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': String(HELD_BODY_BYTES),
      ...WRITE.headers,
    },
  });
  const outcome = new Promise<{ status: number; headers: Record<string, unknown>; body: string } | Error>((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', resolve);
    });
    req.on('error', resolve);
  });
  req.flushHeaders();
  return {
    req,
    outcome,
    finish: () => req.end(WRITE.body.padEnd(HELD_BODY_BYTES, ' ')),
    abort: () => req.destroy(),
  };
}

async function listen(app: FastifyInstance): Promise<number> {
  const address = app.server.address() as AddressInfo | null;
  if (address) return address.port;
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

// ---------------------------------------------------------------------------------------------
// CLI (in-process, against the test database)

async function cli(t: TestApp, args: string[]): Promise<any> {
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = t.config.database.url;
  try {
    const result = await runCli(args);
    assert.equal(result.code, 0, `blog-api ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}

// ---------------------------------------------------------------------------------------------
// Redis availability

const REDIS_URL = TEST_REDIS_URL;

let redisSkip: string | undefined;
if (!(await redisReachable(REDIS_URL))) {
  redisSkip = `Redis not reachable at ${REDIS_URL}; start Redis or set TEST_REDIS_URL (REQUIRE_REDIS=1 turns this into a failure)`;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but ${redisSkip}`);
  console.log(`# skipping Redis traffic-control suites: ${redisSkip}`);
}

/** Removes the counters a test left in Redis (they would expire within a minute anyway). */
async function deleteRedisKeys(keyIds: string[]): Promise<void> {
  if (keyIds.length === 0) return;
  const admin = new Redis(REDIS_URL, { lazyConnect: true });
  try {
    await admin.connect();
    for (const keyId of keyIds) {
      const keys = await admin.keys(`blogapi:*${keyId}`);
      if (keys.length > 0) await admin.del(...keys);
    }
  } finally {
    admin.disconnect();
  }
}

// =============================================================================================

describeTenantApp('traffic control over HTTP, memory backend', { tenant: false }, (suite) => {
  const me = (key: string) => suite.t.request({ method: 'GET', url: '/v1/me', key });

  it('puts the three rate headers on every authenticated response, whatever its status, and none on 401', async () => {
    suite.t.clock.advance(1_250); // off a second boundary, to check that the reset time is rounded up
    const windowStart = suite.t.clock.now().getTime();
    const reset = resetFor(windowStart);
    const store = await suite.t.createStore();
    const key = await suite.t.issueKey(store, ['read_blog'], { readPerMinute: 50 });
    let remaining = 50;

    const ok = await me(key);
    assert.equal(ok.statusCode, 200);
    assertRate(ok, 50, --remaining, reset, '200');

    const forbidden = await suite.t.request({ method: 'GET', url: '/v1/audit/events', key });
    assertError(forbidden, 'insufficient_scope', [{ field: 'scope', issue: 'required: read_audit' }]);
    assertRate(forbidden, 50, --remaining, reset, '403');

    const auditor = await suite.t.issueKey(store, ['read_audit'], { readPerMinute: 50 });
    const invalid = await suite.t.request({ method: 'GET', url: '/v1/audit/events?limit=999', key: auditor });
    assertError(invalid, 'validation_failed', [{ field: 'limit', issue: /.+/ }]);
    assertRate(invalid, 50, 49, reset, '422');

    const missing = await suite.t.request({ method: 'GET', url: '/v1/blog/posts/999999', key });
    assertError(missing, 'not_found');
    assertRate(missing, 50, --remaining, reset, '404 not_found');

    const noCategories = await suite.t.createStore({ categories: false });
    const featureless = await suite.t.issueKey(noCategories, ['read_blog'], { readPerMinute: 50 });
    const unavailable = await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key: featureless });
    assertError(unavailable, 'feature_unavailable');
    assertRate(unavailable, 50, 49, reset, '404 feature_unavailable');

    const uncertified = await suite.t.createStore({ certified: false });
    const gated = await suite.t.issueKey(uncertified, ['read_blog', 'read_audit'], { readPerMinute: 50 });
    const blocked = await suite.t.request({ method: 'GET', url: '/v1/audit/events', key: gated });
    assertError(blocked, 'tenant_not_certified');
    assertRate(blocked, 50, 49, reset, '503');

    // Later requests in the same window keep the same reset time.
    suite.t.clock.advance(30_000);
    assertRate(await me(key), 50, --remaining, reset, 'later in the window');

    const writer = await suite.t.issueKey(store, ['write_blog'], { writePerMinute: 9, readPerMinute: 50 });
    const written = await callWrite(suite.t.app, writer);
    assert.equal(written.statusCode, 422, written.body);
    assert.equal(written.json().error.code, 'validation_failed');
    assertRate(written, 9, 8, resetFor(suite.t.clock.now().getTime()), 'write class, 422');

    const wrongSecret = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    for (const authorization of [undefined, 'Bearer nope', `Bearer  ${key}`, `Bearer ${wrongSecret}`]) {
      const denied = await suite.t.request({
        method: 'GET',
        url: '/v1/me',
        headers: authorization === undefined ? {} : { authorization },
      });
      assertError(denied, 'unauthorized');
      assertNoRateHeaders(denied, `on 401 (${authorization ?? 'no header'})`);
    }
    // 401s were not counted against the key whose id they carried.
    assertRate(await me(key), 50, remaining - 1, reset, 'after the 401s');
  });

  it('allows exactly readPerMinute reads, then answers 429 rate_limited with Retry-After and the headers', async () => {
    const windowStart = suite.t.clock.now().getTime();
    const reset = resetFor(windowStart);
    const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog'], { readPerMinute: 3 });
    for (const remaining of [2, 1, 0]) {
      const res = await me(key);
      assert.equal(res.statusCode, 200, `remaining ${remaining}: ${res.body}`);
      assertRate(res, 3, remaining, reset);
      assert.equal(res.headers['retry-after'], undefined, 'no Retry-After on an allowed request');
    }
    const limited = await me(key);
    const err = assertError(limited, 'rate_limited');
    assert.equal(err.retryable, true);
    assert.deepEqual(err.details, []);
    assertRate(limited, 3, 0, reset, '429');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
      `Retry-After ${limited.headers['retry-after']}`,
    );
    assert.equal(retryAfter, 60, 'the whole minute is left');

    // Later in the window the suggested wait shrinks with the clock.
    suite.t.clock.advance(20_500);
    const later = await me(key);
    assertError(later, 'rate_limited');
    assert.equal(later.headers['retry-after'], '40', 'whole seconds until the window ends (39.5 s), rounded up');
    assertRate(later, 3, 0, reset);
  });

  it('keeps read and write allowances independent', async () => {
    const start = suite.t.clock.now().getTime();
    const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog', 'write_blog'], {
      readPerMinute: 2,
      writePerMinute: 2,
    });
    for (let i = 0; i < 2; i++) assert.equal((await me(key)).statusCode, 200);
    assertError(await me(key), 'rate_limited');

    const firstWrite = await callWrite(suite.t.app, key);
    assert.notEqual(firstWrite.statusCode, 429, `a write while reads are exhausted: ${firstWrite.body}`);
    assertRate(firstWrite, 2, 1, resetFor(start), `write ${firstWrite.statusCode}`);
    assert.notEqual((await callWrite(suite.t.app, key)).statusCode, 429);
    const writeLimited = await callWrite(suite.t.app, key);
    assertError(writeLimited, 'rate_limited');
    assertRate(writeLimited, 2, 0, resetFor(start), 'write 429');

    // And the other way round: a fresh read allowance is not spent by writes.
    const other = await suite.t.issueKey(await suite.t.createStore(), ['read_blog', 'write_blog'], {
      readPerMinute: 2,
      writePerMinute: 1,
    });
    assert.notEqual((await callWrite(suite.t.app, other)).statusCode, 429);
    assertError(await callWrite(suite.t.app, other), 'rate_limited');
    const read = await me(other);
    assert.equal(read.statusCode, 200);
    assertRate(read, 2, 1, resetFor(start));
  });

  it('counts requests refused with 403 (and 403 wins over 429 rate_limited)', async () => {
    const reset = resetFor(suite.t.clock.now().getTime());
    const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog'], { readPerMinute: 2 });
    for (const remaining of [1, 0, 0]) {
      const res = await suite.t.request({ method: 'GET', url: '/v1/audit/events', key });
      assertError(res, 'insufficient_scope', [{ field: 'scope', issue: 'required: read_audit' }]);
      assertRate(res, 2, remaining, reset);
      assert.equal(res.headers['retry-after'], undefined);
    }
    const limited = await me(key);
    assertError(limited, 'rate_limited');
    assertRate(limited, 2, 0, reset);
  });

  it('refills the allowance when the minute has passed (memory backend, moved clock)', async () => {
    const start = suite.t.clock.now().getTime();
    const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog'], { readPerMinute: 2 });
    await me(key);
    await me(key);
    assertError(await me(key), 'rate_limited');

    suite.t.clock.set(start + 59_999);
    const stillLimited = await me(key);
    assertError(stillLimited, 'rate_limited');
    assert.equal(stillLimited.headers['retry-after'], '1', 'never 0 while blocked');

    suite.t.clock.set(start + 60_000);
    const refilled = await me(key);
    assert.equal(refilled.statusCode, 200, refilled.body);
    assertRate(refilled, 2, 1, resetFor(start + 60_000), 'new window');
  });

  it('applies a limit changed with the CLI (key update) on the very next request', async () => {
    const reset = resetFor(suite.t.clock.now().getTime());
    const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog', 'write_blog'], { readPerMinute: 3 });
    for (let i = 0; i < 3; i++) assert.equal((await me(key)).statusCode, 200);
    assertError(await me(key), 'rate_limited'); // the 4th request, counted as well

    const updated = await cli(suite.t, ['key', 'update', keyIdOf(key), '--read-per-minute', '5']);
    assert.equal(updated.rate_limits.read_per_minute, 5);
    const fifth = await me(key);
    assert.equal(fifth.statusCode, 200, 'the raised limit applies at once, to the count already made');
    assertRate(fifth, 5, 0, reset);
    assert.equal(fifth.json().rate_limits.read_per_minute, 5);
    assertError(await me(key), 'rate_limited');

    await cli(suite.t, ['key', 'update', keyIdOf(key), '--read-per-minute', '50', '--write-per-minute', '1']);
    assertRate(await me(key), 50, 43, reset);
    assert.notEqual((await callWrite(suite.t.app, key)).statusCode, 429);
    const writeLimited = await callWrite(suite.t.app, key);
    assertError(writeLimited, 'rate_limited');
    assertRate(writeLimited, 1, 0, reset);
  });

  it('answers 429 concurrency_limited with Retry-After: 1 while the key’s slots are taken elsewhere', async () => {
    const reset = resetFor(suite.t.clock.now().getTime());
    const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog'], {
      concurrency: 2,
      readPerMinute: 10,
    });
    const keyId = keyIdOf(key);
    const slots = watchSlots(suite.t.ctx);
    try {
      // Two requests of this key in flight, e.g. on another instance sharing the counters.
      const first = await suite.t.ctx.traffic.acquireSlot(keyId, 2);
      const second = await suite.t.ctx.traffic.acquireSlot(keyId, 2);
      assert.ok(first && second);

      const limited = await me(key);
      const err = assertError(limited, 'concurrency_limited');
      assert.equal(err.retryable, true);
      assert.equal(limited.headers['retry-after'], '1');
      assertRate(limited, 10, 9, reset, 'a request refused for concurrency still counts');

      await first();
      const ok = await me(key);
      assert.equal(ok.statusCode, 200, ok.body);
      assertRate(ok, 10, 8, reset);
      // The request gave its slot back when it finished: one held by the test, one free.
      await slots.until('the answered request released its slot', () => slots.held(keyId) === 1);
      await second();
      assert.equal(slots.held(keyId), 0);
    } finally {
      slots.restore();
    }
  });

  it('orders 429 rate_limited before 429 concurrency_limited before 503', async () => {
    const reset = resetFor(suite.t.clock.now().getTime());
    const uncertified = await suite.t.createStore({ certified: false });
    const key = await suite.t.issueKey(uncertified, ['read_audit'], { concurrency: 1, readPerMinute: 2 });
    const keyId = keyIdOf(key);
    const slots = watchSlots(suite.t.ctx);
    const held = await suite.t.ctx.traffic.acquireSlot(keyId, 1);
    assert.ok(held);
    try {
      assertError(await suite.t.request({ method: 'GET', url: '/v1/audit/events', key }), 'concurrency_limited');
      await held();
      assertError(await suite.t.request({ method: 'GET', url: '/v1/audit/events', key }), 'tenant_not_certified');
      await slots.until('the 503 gave its slot back', () => slots.held(keyId) === 0);
      const again = await suite.t.ctx.traffic.acquireSlot(keyId, 1);
      assert.ok(again);
      const rate = await suite.t.request({ method: 'GET', url: '/v1/audit/events', key });
      assertError(rate, 'rate_limited');
      assertRate(rate, 2, 0, reset);
      await again();
    } finally {
      await held();
      slots.restore();
    }
  });

  it('refuses request concurrency+1 while requests are really in flight, and frees a slot when one ends or aborts', async () => {
    const port = await listen(suite.t.app);
    const reset = resetFor(suite.t.clock.now().getTime());
    const store = await suite.t.createStore();
    const key = await suite.t.issueKey(store, ['read_blog', 'write_blog'], { concurrency: 3 });
    const keyId = keyIdOf(key);
    const slots = watchSlots(suite.t.ctx);
    const held: HeldRequest[] = [];
    try {
      for (let i = 0; i < 3; i++) held.push(holdRequest(port, key));
      await slots.until('3 requests are in flight', () => slots.held(keyId) === 3);

      const limited = await me(key);
      assertError(limited, 'concurrency_limited');
      assert.equal(limited.headers['retry-after'], '1');
      assertRate(limited, 600, 599, reset);
      const writeLimited = await callWrite(suite.t.app, key);
      assertError(writeLimited, 'concurrency_limited');
      assert.equal(writeLimited.headers['retry-after'], '1');
      assert.equal(slots.held(keyId), 3, 'refused requests take no slot');

      // A client giving up on a request gives its slot back.
      held[0].abort();
      assert.ok((await held[0].outcome) instanceof Error);
      await slots.until('the aborted request released its slot', () => slots.held(keyId) === 2);
      const afterAbort = await me(key);
      assert.equal(afterAbort.statusCode, 200, afterAbort.body);
      await slots.until('the answered request released its slot', () => slots.held(keyId) === 2);

      // So does a request that completes: send the rest of its body and read its answer.
      held[1].finish();
      const done = await held[1].outcome;
      assert.ok(!(done instanceof Error), String(done));
      assert.notEqual(done.status, 429, done.body);
      assert.equal(done.headers['x-ratelimit-limit'], '120');
      await slots.until('the finished request released its slot', () => slots.held(keyId) === 1);
      assertRate(await me(key), 600, 597, reset);
    } finally {
      for (const h of held) h.abort();
      await slots.until('every held request released its slot', () => slots.held(keyId) === 0).finally(slots.restore);
    }
  });

  it('reports the limits set with the CLI (key issue, store update) in GET /v1/me', async () => {
    const store = await suite.t.createStore();
    const issued = await cli(suite.t, [
      'key',
      'issue',
      '--store',
      store.handle,
      '--app',
      'cli-app',
      '--scopes',
      'read_blog',
      '--no-expiry',
      '--read-per-minute',
      '7',
      '--write-per-minute',
      '3',
      '--concurrency',
      '2',
    ]);
    assert.equal(issued.key_id, keyIdOf(issued.key));
    const res = await me(issued.key);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().rate_limits, { read_per_minute: 7, write_per_minute: 3, concurrency: 2 });
    assert.equal(res.headers['x-ratelimit-limit'], '7');
    assert.equal(res.headers['x-ratelimit-remaining'], '6');

    const before = res.json().quotas;
    assert.equal(before.posts_per_day.limit, 200);
    const updated = await cli(suite.t, [
      'store',
      'update',
      store.handle,
      '--posts-per-day',
      '3',
      '--images-per-day',
      '4',
    ]);
    assert.deepEqual(updated.quotas, { posts_per_day: 3, images_per_day: 4 });
    const quotas = (await me(issued.key)).json().quotas;
    assert.deepEqual(
      {
        posts: [quotas.posts_per_day.limit, quotas.posts_per_day.used, quotas.posts_per_day.remaining],
        images: [quotas.images_per_day.limit, quotas.images_per_day.used, quotas.images_per_day.remaining],
      },
      { posts: [3, 0, 3], images: [4, 0, 4] },
    );
    assert.equal(quotas.posts_per_day.resets_at, before.posts_per_day.resets_at);
  });
});

describeEachEngine(
  'traffic control shared through Redis by two app instances',
  (target) => {
    let t: TestApp; // instance A (with its own context)
    let instanceB: Awaited<ReturnType<typeof secondInstance>>; // another context and app on the same database and Redis
    let ctxB: AppContext;
    let appB: FastifyInstance;
    const keyIds: string[] = [];
    before(async () => {
      t = await startTestApp(target, { REDIS_URL });
      instanceB = await secondInstance(t);
      ({ ctx: ctxB, app: appB } = instanceB);
    });
    after(async () => {
      await instanceB?.close();
      await t?.close();
      await deleteRedisKeys(keyIds);
    });

    const meOn = (app: FastifyInstance, key: string) =>
      app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } });
    const issue = async (opts: { readPerMinute?: number; writePerMinute?: number; concurrency?: number }) => {
      const key = await t.issueKey(await t.createStore(), ['read_blog', 'write_blog'], opts);
      keyIds.push(keyIdOf(key));
      return key;
    };
    /** Redis owns the window (real time), t.clock only anchors the reset time: within the next minute. */
    const resetRange = (): [number, number] => {
      const nowS = t.clock.now().getTime() / 1000;
      return [Math.floor(nowS), Math.ceil(nowS + 60)];
    };

    it('shares one per-minute allowance: 3 reads on A and 2 on B use up a limit of 5, then both refuse', async () => {
      const key = await issue({ readPerMinute: 5 });
      for (const remaining of [4, 3, 2]) {
        const res = await meOn(t.app, key);
        assert.equal(res.statusCode, 200, res.body);
        assertRate(res, 5, remaining, resetRange(), 'on A');
      }
      for (const remaining of [1, 0]) {
        const res = await meOn(appB, key);
        assert.equal(res.statusCode, 200, res.body);
        assertRate(res, 5, remaining, resetRange(), 'on B');
      }
      for (const [name, app] of [
        ['A', t.app],
        ['B', appB],
      ] as const) {
        const limited = await meOn(app, key);
        const err = assertError(limited, 'rate_limited');
        assert.equal(err.retryable, true);
        assertRate(limited, 5, 0, resetRange(), `429 on ${name}`);
        const retryAfter = Number(limited.headers['retry-after']);
        assert.ok(
          Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
          `Retry-After ${limited.headers['retry-after']} on ${name}`,
        );
      }
    });

    it('counts the first requests after a busy start-up instead of failing open while Redis connects', async () => {
      const errors: unknown[] = [];
      const ctx = await createContext(t.config, { clock: t.clock, onTrafficBackendError: (err) => errors.push(err) });
      // Start-up work that keeps the event loop busy right after the Redis client was created.
      const busyUntil = Date.now() + 300;
      while (Date.now() < busyUntil);
      const app = await buildApp(ctx, { logLevel: 'silent' });
      try {
        const key = await issue({ readPerMinute: 2 });
        const first = await app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } });
        assert.equal(first.statusCode, 200, first.body);
        assertRate(first, 2, 1, resetRange(), 'the first request is counted in Redis');
        assert.deepEqual(errors.map(String), []);
      } finally {
        await app.close();
        await ctx.close();
      }
    });

    it('keeps the read and write allowances independent across instances', async () => {
      const key = await issue({ readPerMinute: 1, writePerMinute: 1 });
      assert.equal((await meOn(t.app, key)).statusCode, 200);
      assertError(await meOn(appB, key), 'rate_limited');
      const written = await callWrite(t.app, key);
      assert.notEqual(written.statusCode, 429, written.body);
      assertRate(written, 1, 0, resetRange(), 'write on A');
      const limited = await callWrite(appB, key);
      assertError(limited, 'rate_limited');
      assertRate(limited, 1, 0, resetRange(), 'write on B');
    });

    it('shares the in-flight count: slots taken through A make B answer 429 concurrency_limited', async () => {
      const key = await issue({ concurrency: 2 });
      const keyId = keyIdOf(key);
      const slotsB = watchSlots(ctxB);
      const first = await t.ctx.traffic.acquireSlot(keyId, 2);
      const second = await t.ctx.traffic.acquireSlot(keyId, 2);
      assert.ok(first && second);
      try {
        const limited = await meOn(appB, key);
        const err = assertError(limited, 'concurrency_limited');
        assert.equal(err.retryable, true);
        assert.equal(limited.headers['retry-after'], '1');
        assertRate(limited, 600, 599, resetRange());
        await first();
        const ok = await meOn(appB, key);
        assert.equal(ok.statusCode, 200, ok.body);
        await slotsB.until('B gave its slot back when it answered', () => slotsB.held(keyId) === 0);
      } finally {
        await first();
        await second();
        slotsB.restore();
      }
    });

    it('counts requests really in flight on A against the limit on B, and frees the slot when one aborts', async () => {
      const port = await listen(t.app);
      const key = await issue({ concurrency: 2 });
      const keyId = keyIdOf(key);
      const slotsA = watchSlots(t.ctx);
      const slotsB = watchSlots(ctxB);
      const held: HeldRequest[] = [];
      try {
        for (let i = 0; i < 2; i++) held.push(holdRequest(port, key));
        await slotsA.until('2 requests are in flight on A', () => slotsA.held(keyId) === 2);
        const limited = await meOn(appB, key);
        assertError(limited, 'concurrency_limited');
        assert.equal(limited.headers['retry-after'], '1');

        held[0].abort();
        await slotsA.until('the aborted request released its slot on A', () => slotsA.held(keyId) === 1);
        const ok = await meOn(appB, key);
        assert.equal(ok.statusCode, 200, ok.body);
      } finally {
        for (const h of held) h.abort();
        await slotsA
          .until('every held request released its slot', () => slotsA.held(keyId) === 0)
          .finally(slotsA.restore);
      }
      await slotsB
        .until('B gave its slot back when it answered', () => slotsB.held(keyId) === 0)
        .finally(slotsB.restore);
    });
  },
  { skip: redisSkip },
);

describeTenantApp(
  'traffic control when Redis is down',
  { env: { REDIS_URL: 'redis://127.0.0.1:1' }, tenant: false },
  (suite) => {
    it("falls back to this process's own counters: the rate and concurrency limits still hold per process", async () => {
      const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog'], {
        readPerMinute: 2,
        concurrency: 1,
      });
      const keyId = keyIdOf(key);
      const nowS = suite.t.clock.now().getTime() / 1000;
      for (const remaining of [1, 0]) {
        const res = await suite.t.request({ method: 'GET', url: '/v1/me', key });
        assert.equal(res.statusCode, 200, res.body);
        assertCommonHeaders(res);
        assertRate(res, 2, remaining, Math.ceil(nowS + 60), `request with ${remaining} left`);
      }
      const limited = await suite.t.request({ method: 'GET', url: '/v1/me', key });
      assertError(limited, 'rate_limited');
      // The in-flight limit: a slot held in this process (Redis is away) leaves none for a request.
      const other = await suite.t.issueKey(await suite.t.createStore(), ['read_blog'], { concurrency: 1 });
      const held = await suite.t.ctx.traffic.acquireSlot(keyIdOf(other), 1);
      assert.ok(held);
      try {
        assertError(await suite.t.request({ method: 'GET', url: '/v1/me', key: other }), 'concurrency_limited');
      } finally {
        await held();
      }
      assert.equal((await suite.t.request({ method: 'GET', url: '/v1/me', key: other })).statusCode, 200);
      assert.ok(keyId);
    });

    it('reports each failure to the context’s backend-error callback', async () => {
      const errors: Array<{ operation?: string }> = [];
      const { app, close } = await secondInstance(suite.t, {
        onTrafficBackendError: (err) => errors.push(err as { operation?: string }),
      });
      try {
        const key = await suite.t.issueKey(await suite.t.createStore(), ['read_blog'], { readPerMinute: 5 });
        assert.equal(
          (await app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } })).statusCode,
          200,
        );
        assert.equal(
          (await app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } })).statusCode,
          200,
        );
        const operations = new Set(errors.map((e) => e.operation));
        // The count and the slot are one script, so one failure each request.
        assert.ok(operations.has('admit'), `reported: ${[...operations].join(', ')}`);
        assert.equal(errors.filter((e) => e.operation === 'admit').length, 2);
      } finally {
        await close();
      }
    });
  },
);
