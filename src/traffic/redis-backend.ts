import type { Reporter } from './backend-error.js';
import { openRedisConnection } from './redis-connection.js';
import { createRedisAdmit } from './redis-admit.js';
import { createRedisSlots } from './redis-slots.js';
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
 * Time: Redis owns the window (key TTL) and the slot ages (server TIME). The injected clock is only
 * used to turn "ms until reset" into an absolute X-RateLimit-Reset value.
 */
export interface RedisTrafficControlOptions {
  redisUrl: string;
  clock: Clock;
  keyPrefix: string;
  report: Reporter;
}

export function createRedisTrafficControl(opts: RedisTrafficControlOptions): TrafficControl {
  const { clock, keyPrefix, report } = opts;
  const connection = openRedisConnection(opts.redisUrl, report);
  const slots = createRedisSlots(connection.client, keyPrefix);
  const admitScript = createRedisAdmit(connection.client, keyPrefix);
  // This process's own counters, used only while Redis fails (see above).
  const local = createMemoryTrafficControl(clock);

  async function admit(request: AdmitRequest): Promise<Admission> {
    const { keyId, rateClass, limitPerMinute, concurrency, takeSlot } = request;
    assertKeyId(keyId);
    assertRateClass(rateClass);
    assertCount('limitPerMinute', limitPerMinute);
    assertCount('concurrency', concurrency);
    await connection.whenSettled();
    try {
      const reply = await admitScript(
        `${rateClass}:${keyId}`,
        keyId,
        limitPerMinute,
        concurrency,
        takeSlot,
        request.hashKey,
        request.markerKey,
      );
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
      report('admit', err);
      return { ...(await local.admit({ ...request, hashKey: undefined, markerKey: undefined })), local: true };
    }
  }

  async function acquireSlot(keyId: string, max: number): Promise<(() => Promise<void>) | null> {
    assertKeyId(keyId);
    assertCount('max', max);
    await connection.whenSettled();
    let slotId: string | null;
    try {
      slotId = await slots.acquire(keyId, max);
    } catch (err) {
      report('acquireSlot', err);
      return local.acquireSlot(keyId, max);
    }
    if (slotId === null) return null;
    const heldSlot = slotId;
    return releaseOnce(() => releaseSlot(keyId, heldSlot));
  }

  /** Never rejects: a lost release only costs a slot until its entry ages out (see redis-slots.ts). */
  async function releaseSlot(keyId: string, slotId: string): Promise<void> {
    try {
      await slots.release(keyId, slotId);
    } catch (err) {
      report('releaseSlot', err);
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
      await local.close();
      await connection.close();
    },
  };
}
