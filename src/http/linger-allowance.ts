// How many of a key's refused bodies the server reads and drops (a lingering close,
// connection-guard.ts) in a minute. Lingering lets a client that is still sending read its
// answer instead of meeting a reset, but it costs the server the body's bytes all the same: a
// client that keeps sending large bodies it is refused for (ignoring Retry-After) would make the
// server receive them as if they were accepted. Past the allowance, the answer goes out and the
// connection closes at once; such a client may see a reset instead of the answer, which it had
// already been given (docs/operations.md, "Early refusals: lingering close").
import { LRUCache } from 'lru-cache';

/** Enough for a client that reads its answers and backs off; nowhere near a flood. */
export const LINGERING_REFUSALS_PER_MINUTE = 10;

const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  used: number;
}

export class LingerAllowance {
  // One entry per key refused in the last minute; the least recent go first past the bound.
  private readonly windows = new LRUCache<string, Window>({ max: 10_000 });

  /** Whether this refusal of `keyId` may linger; counts it when it may. */
  take(keyId: string, now: number): boolean {
    let window = this.windows.get(keyId);
    if (!window || now - window.startedAt >= WINDOW_MS || now < window.startedAt) {
      window = { startedAt: now, used: 0 };
      this.windows.set(keyId, window);
    }
    if (window.used >= LINGERING_REFUSALS_PER_MINUTE) return false;
    window.used += 1;
    return true;
  }
}
