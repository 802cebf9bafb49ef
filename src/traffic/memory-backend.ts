import { releaseOnce } from './release-once.js';
import type { Clock } from '../lib/clock.js';
import type { Admission, AdmitRequest, RateClass, TrafficControl } from './types.js';
import { assertCount, assertKeyId, assertRateClass } from './validate.js';
import { WINDOW_MS, decide } from './window.js';

/*
 * Single-process backend, counted on the injected clock so tests can move time without sleeping.
 *
 * Window semantics match the Redis backend (a "flexible fixed window"):
 * a key's window starts with the first request counted in it and lasts WINDOW_MS; the count is
 * independent of the limit, so a changed limit applies to the very next request.
 */

interface Window {
  startMs: number;
  count: number;
}

export function createMemoryTrafficControl(clock: Clock): TrafficControl {
  // One map a rate class, keyed by key id: a key made of both would be a new string to hash
  // on every request.
  const windowsOf: Record<RateClass, Map<string, Window>> = { read: new Map(), write: new Map() };
  const inFlight = new Map<string, number>();
  let lastSweepMs = Number.NEGATIVE_INFINITY;

  /** Drops finished windows at most once per window length, so idle keys do not pile up. */
  function sweep(nowMs: number): void {
    if (nowMs - lastSweepMs < WINDOW_MS) return;
    lastSweepMs = nowMs;
    for (const windows of Object.values(windowsOf)) {
      for (const [key, window] of windows) {
        if (nowMs >= window.startMs + WINDOW_MS) windows.delete(key);
      }
    }
  }

  function countRequest(windows: Map<string, Window>, key: string, nowMs: number): Window {
    const current = windows.get(key);
    if (current && nowMs < current.startMs + WINDOW_MS) {
      current.count += 1;
      return current;
    }
    const fresh = { startMs: nowMs, count: 1 };
    windows.set(key, fresh);
    return fresh;
  }

  function releaseSlot(keyId: string): void {
    const left = (inFlight.get(keyId) ?? 0) - 1;
    if (left > 0) inFlight.set(keyId, left);
    else inFlight.delete(keyId);
  }

  /** Takes a slot now: its release, or null when `max` are in flight. */
  function takeSlot(keyId: string, max: number): (() => Promise<void>) | null {
    const used = inFlight.get(keyId) ?? 0;
    if (used >= max) return null;
    inFlight.set(keyId, used + 1);
    return releaseOnce(async () => releaseSlot(keyId));
  }

  async function acquireSlot(keyId: string, max: number): Promise<(() => Promise<void>) | null> {
    assertKeyId(keyId);
    assertCount('max', max);
    return takeSlot(keyId, max);
  }

  // Synchronous: the counters are in this process, so a request is admitted without a promise
  // or a turn of the microtask queue (the pipeline goes on in the same turn).
  function admit(request: AdmitRequest): Admission {
    const { keyId, rateClass, limitPerMinute, concurrency } = request;
    assertKeyId(keyId);
    assertRateClass(rateClass);
    assertCount('limitPerMinute', limitPerMinute);
    assertCount('concurrency', concurrency);
    const nowMs = clock.now().getTime();
    sweep(nowMs);
    // Every request counts, refused ones included, so hammering a full allowance stays refused.
    const window = countRequest(windowsOf[rateClass], keyId, nowMs);
    const windowEndMs = window.startMs + WINDOW_MS;
    const decision = decide(limitPerMinute, window.count, nowMs, windowEndMs);
    let release: (() => Promise<void>) | null = null;
    let slotRefused = false;
    if (request.takeSlot && decision.allowed) {
      release = takeSlot(keyId, concurrency);
      slotRefused = release === null;
    }
    return { decision, consumed: window.count, windowEndMs, release, slotRefused, hash: null, marker: null };
  }

  async function close(): Promise<void> {
    windowsOf.read.clear();
    windowsOf.write.clear();
    inFlight.clear();
  }

  return { backend: 'memory', admit, acquireSlot, check: async () => {}, commandCount: () => 0, redis: null, close };
}
