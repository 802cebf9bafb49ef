import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { WINDOW_SECONDS } from './window.js';

/*
 * Shared per-minute counters via rate-limiter-flexible's RateLimiterRedis (atomic Lua INCR + TTL;
 * the window starts with the first request of a key and ends when the Redis key expires).
 *
 * A limiter's `points` is fixed at construction, while limits are per API key and can be changed
 * by an operator at any time. So there is one limiter per distinct limit value, and all of them
 * use the SAME Redis key prefix: the stored counter is shared, and whichever limiter is picked
 * for a request compares it with the limit in force now. A changed limit therefore applies to
 * the next request, without resetting what was already counted in the window.
 */

export interface CountedWindow {
  consumed: number;
  /** Milliseconds until the counter expires, as reported by Redis. */
  msUntilReset: number;
}

export function createRedisRateCounter(client: Redis, keyPrefix: string) {
  const limiters = new Map<number, RateLimiterRedis>();

  function limiterFor(limit: number): RateLimiterRedis {
    let limiter = limiters.get(limit);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: client, // ioredis client: `useRedisPackage` stays off (that flag is for node-redis).
        keyPrefix: `${keyPrefix}rate`,
        points: limit,
        duration: WINDOW_SECONDS,
        // Fail fast instead of sending to a client that is not connected; the caller fails open.
        rejectIfRedisNotReady: true,
      });
      limiters.set(limit, limiter);
    }
    return limiter;
  }

  /** Counts one request; resolves with the window state whether or not it is over the limit. */
  async function count(counterKey: string, limit: number): Promise<CountedWindow> {
    try {
      return toWindow(await limiterFor(limit).consume(counterKey, 1));
    } catch (rejection: unknown) {
      // Over the limit is reported by rejecting with a RateLimiterRes; anything else is a store error.
      if (rejection instanceof RateLimiterRes) return toWindow(rejection);
      throw rejection;
    }
  }

  return { count };
}

function toWindow(res: RateLimiterRes): CountedWindow {
  // A missing TTL (-1) cannot happen with the library's script, but if it did, assume a full window.
  const msUntilReset = res.msBeforeNext >= 0 ? res.msBeforeNext : WINDOW_SECONDS * 1000;
  return { consumed: res.consumedPoints, msUntilReset };
}
