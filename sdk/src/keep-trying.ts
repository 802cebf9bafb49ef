// How the readers that run for hours (events.follow, store-blog listen) ride out an outage. A
// call that fails for a reason that passes — no connection, no answer in time, a 5xx, a 429, or
// any other answer a later try may change — is sent again, for as long as it takes, after a
// capped, jittered wait. Only the answers no wait can change end it: 401 (the key is revoked),
// 403 (a scope is missing), 410 (the cursor is past the retention), 422 (the request is wrong).
//
// The wait after the n-th failure in a row (n from 1) is "equal jitter": half of
// min(maxDelayMs, baseDelayMs × 2^(n-1)) for sure plus up to the other half at random, so
// clients that lost the service together do not come back together, and none hammers it. A
// Retry-After longer than that is waited for in full: the service asked.
import { BlogApiError, BlogConnectionError } from './errors.js';

/** The back-off of a follower (events.follow, listen); every field optional. */
export interface FollowRetryOptions {
  /** The first wait in ms (default 500); it doubles per failure in a row. */
  baseDelayMs?: number;
  /** The longest wait in ms (default 30 000), Retry-After aside. */
  maxDelayMs?: number;
  /** Uniform in [0, 1) (default Math.random): the jitter's source; injectable for tests. */
  random?: () => number;
}

/** What `onRetry` is told before each wait. */
export interface FollowRetryEvent {
  /** Why the call failed: a BlogConnectionError (`network_error`, `timeout`) or a BlogApiError (5xx, 429, …). */
  error: BlogApiError | BlogConnectionError;
  /** Failures in a row, this one included (1 for the first). */
  failures: number;
  /** How long it waits before trying again. */
  delayMs: number;
}

export const FOLLOW_RETRY_DEFAULTS = { baseDelayMs: 500, maxDelayMs: 30_000 } as const;

/** Answers that end a follower: retrying cannot change them. */
const ENDING_STATUSES = new Set([401, 403, 410, 422]);

/** Whether `error` ends a follower instead of being waited out. */
export function endsFollowing(error: unknown): boolean {
  if (error instanceof BlogConnectionError) return false;
  if (error instanceof BlogApiError) return ENDING_STATUSES.has(error.status);
  // Not the service's answer: a bug, or an error of the caller's own code. Never hidden.
  return true;
}

/** The wait after `failures` failures in a row (see the rule above). */
export function followDelayMs(
  failures: number,
  options: FollowRetryOptions,
  retryAfterSeconds: number | null = null,
): number {
  const base = options.baseDelayMs ?? FOLLOW_RETRY_DEFAULTS.baseDelayMs;
  const cap = options.maxDelayMs ?? FOLLOW_RETRY_DEFAULTS.maxDelayMs;
  const step = Math.min(cap, base * 2 ** Math.min(failures - 1, 30));
  const jittered = Math.round(step / 2 + (options.random ?? Math.random)() * (step / 2));
  return retryAfterSeconds === null ? jittered : Math.max(retryAfterSeconds * 1000, jittered);
}

/** Throws a TypeError when the options cannot make a sensible back-off. */
export function checkFollowRetry(options: FollowRetryOptions | undefined): void {
  const base = options?.baseDelayMs ?? FOLLOW_RETRY_DEFAULTS.baseDelayMs;
  const cap = options?.maxDelayMs ?? FOLLOW_RETRY_DEFAULTS.maxDelayMs;
  if (!Number.isFinite(base) || base <= 0) throw new TypeError('retry.baseDelayMs must be a number > 0');
  if (!Number.isFinite(cap) || cap < base) throw new TypeError('retry.maxDelayMs must be a number ≥ retry.baseDelayMs');
}

export interface KeepTryingSettings {
  signal?: AbortSignal | undefined;
  /** Waits `ms`; may resolve or reject early when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  retry?: FollowRetryOptions | undefined;
  onRetry?: ((event: FollowRetryEvent) => void) | undefined;
}

/**
 * Calls `call` until it succeeds: resolves `{ value }`, or undefined once `signal` aborts.
 * Throws only what endsFollowing says ends it.
 */
export async function keepTrying<T>(
  call: () => Promise<T>,
  settings: KeepTryingSettings,
): Promise<{ value: T } | undefined> {
  const { signal } = settings;
  for (let failures = 1; ; failures++) {
    if (signal?.aborted) return undefined;
    let error: unknown;
    try {
      return { value: await call() };
    } catch (err) {
      error = err;
    }
    if (signal?.aborted) return undefined;
    if (endsFollowing(error)) throw error;
    const failure = error as BlogApiError | BlogConnectionError;
    const retryAfter = failure instanceof BlogApiError ? failure.retryAfterSeconds : null;
    const delayMs = followDelayMs(failures, settings.retry ?? {}, retryAfter);
    try {
      settings.onRetry?.({ error: failure, failures, delayMs });
    } catch {
      // A logging hook never ends the stream.
    }
    try {
      await settings.sleep(delayMs, signal);
    } catch (err) {
      if (signal?.aborted) return undefined;
      throw err;
    }
  }
}
