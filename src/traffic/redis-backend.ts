import { randomUUID } from 'node:crypto';
import { CircuitOpenError } from '../lib/circuit-breaker.js';
import type { Timers } from '../lib/timers.js';
import type { Reporter } from './backend-error.js';
import { openRedisConnection } from './redis-connection.js';
import { createRedisAdmit } from './redis-admit.js';
import { createRedisSlots } from './redis-slots.js';
import { createReleaseBatch } from './release-batch.js';
import { releaseOnce } from './release-once.js';
import type { Clock } from '../lib/clock.js';
import type { Admission, AdmitRequest, TrafficControl } from './types.js';
import { assertCount, assertKeyId, assertRateClass } from './validate.js';
import { createMemoryTrafficControl } from './memory-backend.js';
import { decide } from './window.js';

/*
 * Multi-process backend: every instance pointed at the same Redis and key prefix shares one
 * allowance and one in-flight count per API key.
 *
 * Failure mode: FALL BACK TO THIS PROCESS. If Redis cannot answer (down, out of memory, a
 * read-only replica, a timeout), the request is decided by this process's own counters, as
 * without Redis, and the failure goes to `report` (counted by kind, shown by /readyz, logged
 * once per interval). A fleet of N processes then admits at most N times each limit: the limits
 * loosen but never turn off, and the API does not go down with its cache. Daily quotas and all
 * data invariants are enforced by the database whatever Redis does.
 *
 * Releases are batched (release-batch.ts): carried by the key's next admission, or sent at the
 * end of the turn, one ZREM per key; never after a later admission of their key.
 *
 * Slots outlive no stall: a slot's release that fails (Redis hung or away) is kept and sent again
 * when Redis answers, and an admission that timed out sends the release of the slot it asked for
 * right behind it on the same connection, so when a stalled Redis runs the admission late it
 * frees the slot at once instead of keeping it for SLOT_TTL_MS (a minute) while nobody holds it.
 * While the breaker is open (src/lib/circuit-breaker.ts) nothing is sent and nothing is reported
 * per request: the breaker's opening is the one report.
 *
 * Time: Redis owns the window (key TTL) and the slot ages (server TIME). The injected clock is only
 * used to turn "ms until reset" into an absolute X-RateLimit-Reset value.
 */
export interface RedisTrafficControlOptions {
  redisUrl: string;
  clock: Clock;
  keyPrefix: string;
  report: Reporter;
  timers?: Timers;
}

/** Releases kept while Redis does not answer: enough for every slot of a busy process, and bounded. */
const MAX_PENDING_RELEASES = 10_000;

export function createRedisTrafficControl(opts: RedisTrafficControlOptions): TrafficControl {
  const { clock, keyPrefix, report } = opts;
  const connection = openRedisConnection(opts.redisUrl, report, opts.timers);
  const slots = createRedisSlots(connection.client, keyPrefix);
  const admitScript = createRedisAdmit(connection.client, keyPrefix);
  // This process's own counters, used only while Redis fails (see above).
  const local = createMemoryTrafficControl(clock);
  /** Slot releases that did not reach Redis: sent again once it answers. */
  const pendingReleases = new Map<string, string>();
  const releases = createReleaseBatch(sendReleases);
  connection.breaker.onChange((state) => {
    if (state === 'closed') void flushReleases();
  });
  connection.client.on('ready', () => void flushReleases());

  function keepRelease(keyId: string, slotId: string): void {
    if (pendingReleases.size < MAX_PENDING_RELEASES) pendingReleases.set(slotId, keyId);
  }

  /** The kept releases, one ZREM per key; from the first that fails on, they are kept again. */
  async function flushReleases(): Promise<void> {
    const byKey = new Map<string, string[]>();
    for (const [slotId, keyId] of pendingReleases) {
      const slotIds = byKey.get(keyId);
      if (slotIds) slotIds.push(slotId);
      else byKey.set(keyId, [slotId]);
    }
    pendingReleases.clear();
    let failed = false;
    for (const [keyId, slotIds] of byKey) {
      if (!failed) {
        try {
          await slots.release(keyId, slotIds);
          continue;
        } catch {
          failed = true;
        }
      }
      slotIds.forEach((slotId) => keepRelease(keyId, slotId));
    }
  }

  /**
   * The admission may still run in Redis after its caller gave up (a stall): the release goes
   * right behind it on the same connection, past the breaker, so Redis frees the slot as soon as
   * it has taken it. If even that fails, it is kept for when Redis answers.
   */
  function releaseBehind(keyId: string, slotIds: readonly string[]): Promise<void> {
    return connection.sendPastBreaker('zrem', [slots.keyOf(keyId), ...slotIds]).then(
      () => undefined,
      () => slotIds.forEach((slotId) => keepRelease(keyId, slotId)),
    );
  }

  const reportUnlessOpen = (operation: Parameters<Reporter>[0], err: unknown): void => {
    if (!(err instanceof CircuitOpenError)) report(operation, err);
  };

  async function admit(request: AdmitRequest): Promise<Admission> {
    const { keyId, rateClass, limitPerMinute, concurrency, takeSlot } = request;
    assertKeyId(keyId);
    assertRateClass(rateClass);
    assertCount('limitPerMinute', limitPerMinute);
    assertCount('concurrency', concurrency);
    await connection.whenSettled();
    const askedSlot = takeSlot ? randomUUID() : '';
    const carried = releases.take(keyId);
    try {
      const reply = await admitScript(
        `${rateClass}:${keyId}`,
        keyId,
        limitPerMinute,
        concurrency,
        askedSlot,
        request.hashKey,
        request.markerKey,
        carried?.slotIds,
      );
      carried?.done();
      const nowMs = clock.now().getTime();
      const windowEndMs = nowMs + reply.msUntilReset;
      const heldSlot = reply.slotId;
      return {
        decision: decide(limitPerMinute, reply.consumed, nowMs, windowEndMs),
        consumed: reply.consumed,
        windowEndMs,
        release: heldSlot ? releaseOnce(() => releaseSlot(keyId, heldSlot)) : null,
        slotRefused: heldSlot === false,
        hash: reply.hash,
        marker: reply.marker,
      };
    } catch (err) {
      reportUnlessOpen('admit', err);
      void giveBack(keyId, askedSlot, carried?.slotIds ?? [], err).then(carried?.done);
      return { ...(await local.admit({ ...request, hashKey: undefined, markerKey: undefined })), local: true };
    }
  }

  /**
   * A command that asked for `askedSlot` (or '') and carried `carried` failed. Sent (a timeout),
   * it may still run: its slot and the releases go right behind it. Never sent (the breaker
   * open), it took no slot, and the releases it carried are kept.
   */
  function giveBack(keyId: string, askedSlot: string, carried: readonly string[], err: unknown): Promise<void> {
    if (err instanceof CircuitOpenError) {
      carried.forEach((slotId) => keepRelease(keyId, slotId));
      return Promise.resolve();
    }
    const slotIds = askedSlot ? [askedSlot, ...carried] : carried;
    return slotIds.length > 0 ? releaseBehind(keyId, slotIds) : Promise.resolve();
  }

  async function acquireSlot(keyId: string, max: number): Promise<(() => Promise<void>) | null> {
    assertKeyId(keyId);
    assertCount('max', max);
    await connection.whenSettled();
    // The key's releases of this turn go out ahead of the acquisition, on the same connection.
    void releases.flush(keyId);
    let slotId: string | null;
    const asked = randomUUID();
    try {
      slotId = await slots.acquire(keyId, max, asked);
    } catch (err) {
      reportUnlessOpen('acquireSlot', err);
      void giveBack(keyId, asked, [], err);
      return local.acquireSlot(keyId, max);
    }
    if (slotId === null) return null;
    const heldSlot = slotId;
    return releaseOnce(() => releaseSlot(keyId, heldSlot));
  }

  /** Never rejects: a release that fails is kept and sent again when Redis answers (see above). */
  function releaseSlot(keyId: string, slotId: string): Promise<void> {
    return releases.add(keyId, slotId);
  }

  /** One key's batched releases in one ZREM; those that fail are kept (see above). */
  async function sendReleases(keyId: string, slotIds: string[]): Promise<void> {
    try {
      await slots.release(keyId, slotIds);
    } catch (err) {
      reportUnlessOpen('releaseSlot', err);
      slotIds.forEach((slotId) => keepRelease(keyId, slotId));
    }
  }

  /** A PING: with the offline queue off it fails at once while disconnected, and times out otherwise. */
  async function check(): Promise<void> {
    await connection.whenSettled();
    await connection.client.ping();
  }

  return {
    backend: 'redis',
    admit,
    acquireSlot,
    check,
    commandCount: connection.commandCount,
    redis: connection,
    close: async () => {
      // The turn's releases are answered before QUIT (a hung Redis: each fails within the command
      // timeout, or at once with the breaker open).
      await releases.flush();
      await local.close();
      await connection.close();
    },
  };
}
