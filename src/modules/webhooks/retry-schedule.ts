// When a failed delivery is tried again: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h after each
// failure, then every 10 h, for 3 days from the event; then it is `failed`. Each wait is
// lengthened by up to a fifth at random (jitter), so that the deliveries of a receiver that
// came back from an outage do not all arrive in the same second.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
export const RETRY_WINDOW_MS = 3 * DAY;
export const JITTER_FRACTION = 0.2;
/** An endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;

/**
 * The time of the next attempt after `attempts` failed ones (1 = the first attempt failed), or
 * null when the retry window of a delivery created at `createdAt` is over.
 */
export function nextAttemptAt(attempts: number, createdAt: number, now: number, random: () => number): number | null {
  const base = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1];
  const at = now + Math.round(base * (1 + JITTER_FRACTION * random()));
  return at <= createdAt + RETRY_WINDOW_MS ? at : null;
}
