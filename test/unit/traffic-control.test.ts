import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { describe, it, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { settled } from '../helpers/settled.js';
import { unusedPort } from '../helpers/ports.js';
import { createTrafficControl, TrafficBackendError, type TrafficControl } from '../../src/traffic/index.js';
import { createRedisTrafficControl } from '../../src/traffic/redis-backend.js';
import { SLOT_TTL_MS } from '../../src/traffic/redis-slots.js';
import { DEFAULT_BREAKER_THRESHOLD, DEFAULT_PROBE_INTERVAL_MS } from '../../src/lib/circuit-breaker.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { RateClass, RateDecision } from '../../src/traffic/index.js';

/** Counts one request as the pipeline does (takeSlot false: the rate alone) and returns the decision. */
async function countRate(
  traffic: TrafficControl,
  keyId: string,
  rateClass: RateClass,
  limitPerMinute: number,
): Promise<RateDecision> {
  return (await traffic.admit({ keyId, rateClass, limitPerMinute, concurrency: 1, takeSlot: false })).decision;
}

describe('traffic control, memory backend', () => {
  // Deliberately not on a second boundary, to check rounding of the reset time.
  const start = '2030-01-01T00:00:00.250Z';
  const startMs = Date.parse(start);

  it('allows exactly N requests, then blocks with remaining 0 and Retry-After >= 1', async () => {
    const traffic = createTrafficControl({ clock: new ManualClock(start) });
    for (let i = 1; i <= 5; i++) {
      const d = await countRate(traffic, 'key-a', 'read', 5);
      assert.equal(d.allowed, true, `request ${i} should be allowed`);
      assert.equal(d.limit, 5);
      assert.equal(d.remaining, 5 - i);
      assert.equal(d.retryAfterSeconds, 0);
    }
    const blocked = await countRate(traffic, 'key-a', 'read', 5);
    assert.equal(blocked.allowed, false);
    assert.equal(blocked.remaining, 0);
    assert.equal(blocked.retryAfterSeconds, 60);
    const again = await countRate(traffic, 'key-a', 'read', 5);
    assert.equal(again.allowed, false, 'refused requests keep counting, so the next is refused too');
    assert.equal(again.remaining, 0);
    await traffic.close();
  });

  it('counts read and write independently, and keys independently', async () => {
    const traffic = createTrafficControl({ clock: new ManualClock(start) });
    for (let i = 0; i < 2; i++) await countRate(traffic, 'key-a', 'read', 2);
    assert.equal((await countRate(traffic, 'key-a', 'read', 2)).allowed, false);
    const write = await countRate(traffic, 'key-a', 'write', 2);
    assert.equal(write.allowed, true);
    assert.equal(write.remaining, 1);
    const otherKey = await countRate(traffic, 'key-b', 'read', 2);
    assert.equal(otherKey.allowed, true);
    assert.equal(otherKey.remaining, 1);
    await traffic.close();
  });

  it('reports the reset time and shrinking Retry-After, and refills once the window has passed', async () => {
    const clock = new ManualClock(start);
    const traffic = createTrafficControl({ clock });
    const expectedReset = Math.ceil((startMs + 60_000) / 1000);
    const first = await countRate(traffic, 'key-a', 'write', 1);
    assert.equal(first.resetAtUnixSeconds, expectedReset);

    clock.advance(45_000);
    const blocked = await countRate(traffic, 'key-a', 'write', 1);
    assert.equal(blocked.allowed, false);
    assert.equal(blocked.resetAtUnixSeconds, expectedReset, 'a refused request does not move the window');
    assert.equal(blocked.retryAfterSeconds, 15);

    clock.advance(14_900); // 100 ms before the window ends
    const lastMoment = await countRate(traffic, 'key-a', 'write', 1);
    assert.equal(lastMoment.allowed, false);
    assert.equal(lastMoment.retryAfterSeconds, 1, 'never 0 while blocked');

    clock.advance(100); // exactly at the end of the window
    const refilled = await countRate(traffic, 'key-a', 'write', 1);
    assert.equal(refilled.allowed, true);
    assert.equal(refilled.remaining, 0);
    assert.equal(refilled.resetAtUnixSeconds, Math.ceil((startMs + 120_000) / 1000));
    assert.ok(refilled.resetAtUnixSeconds * 1000 >= clock.now().getTime() + 60_000);
    await traffic.close();
  });

  it('applies a changed limit on the very next request', async () => {
    const traffic = createTrafficControl({ clock: new ManualClock(start) });
    for (let i = 0; i < 3; i++) assert.equal((await countRate(traffic, 'key-a', 'read', 5)).allowed, true);

    const lowered = await countRate(traffic, 'key-a', 'read', 3);
    assert.equal(lowered.allowed, false, '4th request against a new limit of 3');
    assert.equal(lowered.limit, 3);
    assert.equal(lowered.remaining, 0);

    const raised = await countRate(traffic, 'key-a', 'read', 10);
    assert.equal(raised.allowed, true);
    assert.equal(raised.limit, 10);
    assert.equal(raised.remaining, 5, 'all 5 requests so far count, the refused one included');

    assert.equal((await countRate(traffic, 'key-a', 'read', 0)).allowed, false, 'limit 0 refuses everything');
    await traffic.close();
  });

  it('hands out max in-flight slots, then null; release frees one; double release frees once', async () => {
    const traffic = createTrafficControl({ clock: new ManualClock(start) });
    const first = await traffic.acquireSlot('key-a', 2);
    const second = await traffic.acquireSlot('key-a', 2);
    assert.ok(first && second);
    assert.equal(await traffic.acquireSlot('key-a', 2), null);
    assert.ok(await traffic.acquireSlot('key-b', 2), 'other keys have their own slots');

    await first();
    const third = await traffic.acquireSlot('key-a', 2);
    assert.ok(third, 'a released slot can be taken again');

    await first(); // second release of the same slot must not free another one
    assert.equal(await traffic.acquireSlot('key-a', 2), null);

    await second();
    await third();
    assert.ok(await traffic.acquireSlot('key-a', 2));
    assert.ok(await traffic.acquireSlot('key-a', 2));
    assert.equal(await traffic.acquireSlot('key-a', 2), null);
    await traffic.close();
  });

  it('rejects invalid arguments instead of guessing', async () => {
    const traffic = createTrafficControl({ clock: new ManualClock(start) });
    await assert.rejects(countRate(traffic, '', 'read', 5), TypeError);
    await assert.rejects(countRate(traffic, 'key-a', 'read', -1), RangeError);
    await assert.rejects(countRate(traffic, 'key-a', 'read', 1.5), RangeError);
    await assert.rejects(traffic.acquireSlot('key-a', Number.NaN), RangeError);
    await traffic.close();
  });
});

const redisUrl = TEST_REDIS_URL;
const requireRedis = process.env.REQUIRE_REDIS === '1';

/** Skips (or fails under REQUIRE_REDIS=1) when Redis is down; returns true when the test may go on. */
async function needRedis(t: TestContext): Promise<boolean> {
  if (await redisReachable(redisUrl)) return true;
  const message = `Redis not reachable at ${redisUrl}`;
  if (requireRedis) assert.fail(`${message} (REQUIRE_REDIS=1)`);
  t.skip(`${message}; set TEST_REDIS_URL or start Redis (REQUIRE_REDIS=1 turns this into a failure)`);
  return false;
}

/** Removes every key a test created under its random prefix. */
async function deleteKeys(prefix: string): Promise<void> {
  const admin = new Redis(redisUrl, { lazyConnect: true });
  try {
    await admin.connect();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
  } finally {
    admin.disconnect();
  }
}

describe('traffic control, redis backend', () => {
  // Redis owns the window (a key's TTL); the clock only turns "ms until reset" into X-RateLimit-Reset,
  // so a clock that stands still makes the reset exact up to the real time the test takes.
  const startMs = Date.parse('2030-01-01T00:00:00.250Z');
  const clock = new ManualClock(startMs);
  /** A redis-server of this test's own on a free port, stopped after it; null (skipped) without the binary. */
  async function startPrivateRedis(t: TestContext): Promise<string | null> {
    const port = await unusedPort();
    const server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const started = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.once('spawn', () => resolve(true));
    });
    if (!started) {
      if (process.env.REQUIRE_REDIS === '1') throw new Error('REQUIRE_REDIS=1 but redis-server could not be started');
      t.skip('redis-server is not installed');
      return null;
    }
    t.after(() => void server.kill());
    // Ready once it answers: ioredis keeps trying to connect until then.
    const probe = new Redis(port, '127.0.0.1', { retryStrategy: () => 20, maxRetriesPerRequest: null });
    // Refused until the server listens: each refusal is an 'error' event, expected here.
    probe.on('error', () => undefined);
    try {
      await probe.ping();
    } finally {
      probe.disconnect();
    }
    return `redis://127.0.0.1:${port}`;
  }

  async function twoInstances(t: TestContext): Promise<[TrafficControl, TrafficControl, string[]]> {
    const keyPrefix = `test:${randomUUID()}:`;
    const errors: string[] = [];
    const onBackendError = (err: unknown): void => {
      errors.push(String(err));
    };
    const a = createTrafficControl({ redisUrl, clock, keyPrefix, onBackendError });
    const b = createTrafficControl({ redisUrl, clock, keyPrefix, onBackendError });
    t.after(async () => {
      await a.close();
      await b.close();
      await deleteKeys(keyPrefix);
    });
    return [a, b, errors];
  }

  /** One instance with a key prefix of its own, and its client to look inside Redis with. */
  async function oneInstance(t: TestContext): Promise<{ traffic: TrafficControl; admin: Redis; keyPrefix: string }> {
    const keyPrefix = `test:${randomUUID()}:`;
    const traffic = createTrafficControl({ redisUrl, clock, keyPrefix });
    t.after(async () => {
      await traffic.close();
      await deleteKeys(keyPrefix);
    });
    await traffic.redis!.whenSettled();
    return { traffic, admin: traffic.redis!.client, keyPrefix };
  }

  it('admits one request in one script: count, slot and a hash read together', async (t) => {
    if (!(await needRedis(t))) return;
    const [a, b] = await twoInstances(t);
    const hashKey = `test:${randomUUID()}:hash`;
    const admin = a.redis!.client;
    await a.redis!.whenSettled();
    await admin.hset(hashKey, { keys: '4', content: '5', usage: '6', gen: '2' });
    await admin.expire(hashKey, 60);
    const before = a.commandCount();
    const first = await a.admit({
      keyId: 'key-s',
      rateClass: 'read',
      limitPerMinute: 2,
      concurrency: 1,
      takeSlot: true,
      hashKey,
    });
    assert.equal(a.commandCount() - before, 1);
    assert.deepEqual(
      [first.decision.allowed, first.decision.remaining, first.consumed, first.slotRefused, first.hash],
      [true, 1, 1, false, ['4', '5', '6', '2']],
    );
    assert.ok(first.release);
    // The one slot is held: the other instance is counted but refused a slot.
    const second = await b.admit({
      keyId: 'key-s',
      rateClass: 'read',
      limitPerMinute: 2,
      concurrency: 1,
      takeSlot: true,
    });
    assert.deepEqual(
      [second.decision.allowed, second.release, second.slotRefused, second.hash],
      [true, null, true, null],
    );
    // Over the limit: counted, no slot asked for.
    const third = await b.admit({
      keyId: 'key-s',
      rateClass: 'read',
      limitPerMinute: 2,
      concurrency: 1,
      takeSlot: true,
    });
    assert.deepEqual([third.decision.allowed, third.release, third.slotRefused], [false, null, false]);
    await first.release!();
    const afterRelease = await b.admit({
      keyId: 'key-s',
      rateClass: 'write',
      limitPerMinute: 2,
      concurrency: 1,
      takeSlot: true,
    });
    assert.ok(afterRelease.release);
    await afterRelease.release!();
  });

  it('frees a full set of the slots a dead process left once they are a minute old, on both paths that take a slot', async (t) => {
    if (!(await needRedis(t))) return;
    const { traffic, admin, keyPrefix } = await oneInstance(t);
    const [seconds, micros] = await admin.time();
    const redisNowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const ask = (keyId: string) =>
      traffic.admit({ keyId, rateClass: 'read', limitPerMinute: 10, concurrency: 2, takeSlot: true });
    /** Two slots taken `ageMs` ago by a process that never gave them back. */
    const leaveSlots = (keyId: string, ageMs: number) =>
      admin.zadd(`${keyPrefix}inflight:${keyId}`, redisNowMs - ageMs, 'left-1', redisNowMs - ageMs, 'left-2');
    await leaveSlots('key-old', SLOT_TTL_MS + 1000);
    await leaveSlots('key-young', 1000);
    const old = await ask('key-old');
    assert.equal(old.slotRefused, false, 'slots older than the TTL no longer count');
    assert.equal(await admin.zcard(`${keyPrefix}inflight:key-old`), 1, 'the new slot alone');
    assert.equal(await admin.zscore(`${keyPrefix}inflight:key-old`, 'left-1'), null, 'removed, not just ignored');
    const young = await ask('key-young');
    assert.deepEqual([young.slotRefused, young.release], [true, null], 'slots younger than the TTL still count');
    assert.equal(await traffic.acquireSlot('key-young', 2), null);
    await leaveSlots('key-young', SLOT_TTL_MS + 1000);
    const acquired = await traffic.acquireSlot('key-young', 2);
    assert.ok(acquired, 'the slot path frees them too');
    await acquired();
    await old.release!();
  });

  it("gives the rate counter its window's expiry, also a counter found without one", async (t) => {
    if (!(await needRedis(t))) return;
    const { traffic, admin, keyPrefix } = await oneInstance(t);
    const ask = (keyId: string) =>
      traffic.admit({ keyId, rateClass: 'read', limitPerMinute: 5, concurrency: 1, takeSlot: false });
    const first = await ask('key-w');
    const ttl = await admin.pttl(`${keyPrefix}rate:read:key-w`);
    assert.ok(ttl > 55_000 && ttl <= 60_000, `ttl ${ttl}`);
    assert.equal(first.windowEndMs, startMs + 60_000, 'a whole window from the first request');
    const second = await ask('key-w');
    assert.equal(second.consumed, 2);
    assert.ok(second.windowEndMs <= first.windowEndMs && second.windowEndMs > startMs + 55_000);
    // A counter without an expiry (written by hand, or by a bug) would refuse for ever: it gets one.
    await admin.set(`${keyPrefix}rate:read:key-x`, '7');
    const found = await ask('key-x');
    assert.deepEqual([found.consumed, found.decision.allowed, found.windowEndMs], [8, false, startMs + 60_000]);
    const given = await admin.pttl(`${keyPrefix}rate:read:key-x`);
    assert.ok(given > 55_000 && given <= 60_000, `ttl ${given}`);
  });

  it('loads the admission script again when Redis has lost it (NOSCRIPT)', async (t) => {
    // A Redis of its own: emptying the script cache of the shared one would make every test
    // process using it at the same time send its scripts again, and miscount its commands.
    const own = await startPrivateRedis(t);
    if (!own) return;
    const a = createTrafficControl({ redisUrl: own, clock, keyPrefix: 'test:', onBackendError: () => undefined });
    t.after(() => a.close());
    const admit = () =>
      a.admit({ keyId: 'key-n', rateClass: 'read', limitPerMinute: 5, concurrency: 5, takeSlot: false });
    assert.equal((await admit()).consumed, 1);
    // As after a restart of Redis: its script cache is empty.
    assert.equal(await a.redis!.client.script('FLUSH'), 'OK');
    const again = await admit();
    assert.deepEqual([again.consumed, again.decision.remaining], [2, 3]);
  });

  it('does not wait for a first connection that another user of the client already made', async (t) => {
    if (!(await needRedis(t))) return;
    const [a] = await twoInstances(t);
    // As the cache versions' reconcile does when it runs before the first request.
    await a.redis!.client.connect();
    assert.equal(a.redis!.client.status, 'ready');
    // Settled at once: a few turns of the event loop, not the bounded wait for a connection.
    const turns = new Promise<string>((resolve) => setImmediate(() => setImmediate(() => resolve('still waiting'))));
    assert.equal(await Promise.race([a.redis!.whenSettled().then(() => 'settled'), turns]), 'settled');
  });

  it('shares one allowance per key and class across instances', async (t) => {
    if (!(await needRedis(t))) return;
    const [a, b, errors] = await twoInstances(t);
    for (let i = 0; i < 3; i++) assert.equal((await countRate(a, 'key-a', 'read', 5)).allowed, true);
    const fourth = await countRate(b, 'key-a', 'read', 5);
    assert.equal(fourth.allowed, true);
    assert.equal(fourth.remaining, 1, 'b sees the 3 requests counted by a');
    assert.equal((await countRate(b, 'key-a', 'read', 5)).allowed, true);

    const blockedOnA = await countRate(a, 'key-a', 'read', 5);
    const blockedOnB = await countRate(b, 'key-a', 'read', 5);
    // The window opened at the first request and has run for as long as the calls since took.
    const windowEnd = Math.ceil((startMs + 60_000) / 1000);
    for (const blocked of [blockedOnA, blockedOnB]) {
      assert.equal(blocked.allowed, false);
      assert.equal(blocked.remaining, 0);
      assert.ok(
        blocked.retryAfterSeconds >= 1 && blocked.retryAfterSeconds <= 60,
        `retry ${blocked.retryAfterSeconds}`,
      );
      const reset = blocked.resetAtUnixSeconds;
      assert.ok(
        reset <= windowEnd && reset >= windowEnd - 10,
        `reset ${reset} outside [${windowEnd - 10}, ${windowEnd}]`,
      );
    }

    const write = await countRate(b, 'key-a', 'write', 5);
    assert.equal(write.allowed, true, 'writes have their own allowance');
    assert.equal(write.remaining, 4);
    assert.deepEqual(errors, []);
  });

  it('applies a changed limit on the next request', async (t) => {
    if (!(await needRedis(t))) return;
    const [a, b, errors] = await twoInstances(t);
    for (let i = 0; i < 3; i++) await countRate(a, 'key-a', 'write', 5);
    const lowered = await countRate(b, 'key-a', 'write', 3);
    assert.equal(lowered.allowed, false);
    assert.equal(lowered.limit, 3);
    const raised = await countRate(a, 'key-a', 'write', 10);
    assert.equal(raised.allowed, true);
    assert.equal(raised.remaining, 5);
    assert.deepEqual(errors, []);
  });

  it('shares in-flight slots across instances; double release frees once', async (t) => {
    if (!(await needRedis(t))) return;
    const [a, b, errors] = await twoInstances(t);
    const s1 = await a.acquireSlot('key-a', 3);
    const s2 = await a.acquireSlot('key-a', 3);
    const s3 = await b.acquireSlot('key-a', 3);
    assert.ok(s1 && s2 && s3);
    assert.equal(await a.acquireSlot('key-a', 3), null);
    assert.equal(await b.acquireSlot('key-a', 3), null);

    await s1();
    await s1();
    const s4 = await b.acquireSlot('key-a', 3);
    assert.ok(s4, 'the slot released on a is usable from b');
    assert.equal(await a.acquireSlot('key-a', 3), null, 'the double release freed only one slot');

    await Promise.all([s2(), s3(), s4()]);
    assert.ok(await a.acquireSlot('key-b', 1), 'other keys are independent');
    assert.deepEqual(errors, []);
  });

  it("a release rides in its key's next admission of the same turn: one command for both, and the slot is free for it", async (t) => {
    if (!(await needRedis(t))) return;
    const [a, b, errors] = await twoInstances(t);
    const ask = (traffic: TrafficControl) =>
      traffic.admit({ keyId: 'key-r', rateClass: 'read', limitPerMinute: 10, concurrency: 1, takeSlot: true });
    const first = await ask(a);
    assert.ok(first.release);
    const before = a.commandCount();
    const given = first.release();
    const second = await ask(a);
    await given;
    assert.ok(second.release, 'the slot given back just before is free for the next admission');
    assert.equal(a.commandCount() - before, 1, 'the release went out inside the admission');
    // Seen from another process: one slot held (the second's), none left over from the first.
    assert.equal((await ask(b)).slotRefused, true);
    await second.release();
    assert.ok((await ask(b)).release, 'given back at the end of the turn, with no admission to carry it');
    assert.deepEqual(errors, []);
  });

  it('releases of one key in one turn go out as one command', async (t) => {
    if (!(await needRedis(t))) return;
    const [a, b, errors] = await twoInstances(t);
    const held = await Promise.all([1, 2, 3].map(() => a.acquireSlot('key-m', 3)));
    assert.equal(await b.acquireSlot('key-m', 3), null);
    const before = a.commandCount();
    await Promise.all(held.map((release) => release!()));
    assert.equal(a.commandCount() - before, 1);
    const again = await Promise.all([1, 2, 3].map(() => b.acquireSlot('key-m', 3)));
    assert.ok(
      again.every((release) => release !== null),
      'all three given back',
    );
    assert.deepEqual(errors, []);
  });

  it('releases carried by an admission the open breaker stopped are kept, and given back together once Redis answers', async (t) => {
    if (!(await needRedis(t))) return;
    const keyPrefix = `test:${randomUUID()}:`;
    const timers = manualTimers();
    const a = createRedisTrafficControl({ redisUrl, clock, keyPrefix, report: () => undefined, timers });
    const b = createTrafficControl({ redisUrl, clock, keyPrefix });
    t.after(async () => {
      await a.close();
      await b.close();
      await deleteKeys(keyPrefix);
    });
    const ask = (traffic: TrafficControl) =>
      traffic.admit({ keyId: 'key-k', rateClass: 'read', limitPerMinute: 10, concurrency: 2, takeSlot: true });
    const held = await Promise.all([ask(a), ask(a)]);
    // As after timeouts in a row: from now on this process sends nothing until a probe answers.
    for (let i = 0; i < DEFAULT_BREAKER_THRESHOLD; i++) a.redis!.breaker.timeout();
    assert.equal(a.redis!.breaker.state, 'open');
    const given = held.map((admission) => admission.release!());
    const local = await ask(a);
    assert.equal(local.local, true, 'decided by this process while the breaker is open');
    await Promise.all(given);
    await local.release!();
    assert.equal((await ask(b)).slotRefused, true, 'both slots still held in Redis: nothing was sent');
    // The probe answers: the breaker closes and the kept releases go out, the key's together.
    const before = a.commandCount();
    timers.tick(DEFAULT_PROBE_INTERVAL_MS);
    const inFlight = `${keyPrefix}inflight:key-k`;
    const admin = b.redis!.client;
    assert.ok(
      await settled(async () => (await admin.zcard(inFlight)) === 0),
      `slots left: ${await admin.zcard(inFlight)}`,
    );
    assert.equal(a.commandCount() - before, 2, "the probe's PING, then one ZREM for both kept releases");
  });

  it("falls back to this process's counters at once (no timer waited on) and reports the error when Redis is unreachable", async (tc) => {
    // Timers are the test's and never move: a decision that waited on one (the first-connection
    // wait, a connect timeout, a retry) would never arrive.
    tc.mock.timers.enable({ apis: ['setTimeout'] });
    const errors: unknown[] = [];
    const traffic = createTrafficControl({
      redisUrl: 'redis://127.0.0.1:1',
      clock,
      onBackendError: (err) => errors.push(err),
    });
    /** The outcome, once the refused connection has been noticed; undefined if it waits on a timer. */
    const withoutWaiting = async <T>(decision: Promise<T>): Promise<T | undefined> => {
      let outcome: { value: T } | undefined;
      void decision.then((value) => (outcome = { value }));
      await settled(() => outcome !== undefined, 100_000);
      return outcome?.value;
    };
    try {
      const decision = await withoutWaiting(countRate(traffic, 'key-a', 'read', 7));
      assert.ok(decision, 'a refused connection must not hang the decision');
      assert.equal(decision.allowed, true);
      assert.equal(decision.limit, 7);
      assert.equal(decision.remaining, 6);
      assert.equal(decision.retryAfterSeconds, 0);
      assert.equal(decision.resetAtUnixSeconds, Math.ceil((startMs + 60_000) / 1000), 'a full window from now');

      // The limits still hold, counted by this process alone while the store is down.
      assert.equal((await countRate(traffic, 'key-a', 'read', 1)).allowed, false);

      const release = await withoutWaiting(traffic.acquireSlot('key-a', 1));
      assert.ok(release, 'a slot is granted at once when the store is down');
      assert.equal(await traffic.acquireSlot('key-a', 1), null, 'and is counted in this process');
      await release();
      assert.ok(await traffic.acquireSlot('key-a', 1), 'its release frees it');

      assert.ok(errors.length >= 1, 'onBackendError was called');
      assert.ok(errors.some((e) => e instanceof TrafficBackendError && e.operation === 'admit'));
      assert.ok(errors.some((e) => e instanceof TrafficBackendError && e.operation === 'acquireSlot'));
    } finally {
      await traffic.close();
    }
  });
});
