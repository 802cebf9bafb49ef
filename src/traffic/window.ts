import type { RateDecision } from './types.js';

/** Length of one rate window. Allowances are per minute (docs/traffic-control.md). */
export const WINDOW_SECONDS = 60;
export const WINDOW_MS = WINDOW_SECONDS * 1000;

/**
 * Turns "how many requests were counted in this window" into a decision.
 * Shared by both backends so headers mean exactly the same thing whichever store is used.
 */
export function decide(limit: number, consumed: number, nowMs: number, windowEndMs: number): RateDecision {
  const allowed = consumed <= limit;
  const msUntilReset = Math.max(windowEndMs - nowMs, 0);
  return {
    allowed,
    limit,
    remaining: Math.max(limit - consumed, 0),
    // Rounded up: at that second the window has certainly ended, so a client waiting for it is never refused.
    resetAtUnixSeconds: Math.ceil(windowEndMs / 1000),
    // Retry-After must be a positive integer; a window ending within the current second still means "wait 1 s".
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(msUntilReset / 1000)),
  };
}
