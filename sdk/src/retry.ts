// Whether and when a request is sent again. The rule is by answer, then by method:
//
// - Refused before any work (429 rate_limited or concurrency_limited, or a 503 without the
//   service's envelope: a proxy with no server to hand the request to): nothing was done, so
//   any call is sent again, a POST without an Idempotency-Key included.
// - Lost answer (network failure, timeout) and the other retryable answers (500
//   internal_error, 409 idempotency_in_progress, a 502/504 without envelope): the work may have
//   been done, so only a call that is idempotent is sent again: GET, PATCH, DELETE, and a POST
//   carrying an Idempotency-Key or that the service de-duplicates (an image upload).
// - Never: any other error (quota_exceeded included).
//
// The wait is "full jitter": a random time between 0 and min(maxRetryDelayMs, base × 2^attempt),
// and at least Retry-After when the answer had one. A Retry-After longer than maxRetryDelayMs is
// not waited for: the error is raised with `retryAfterSeconds` telling the wait.
import { BlogApiError } from './errors.js';

export interface RetryOptions {
  /** First back-off step in ms (default 500). */
  baseDelayMs: number;
  /** Uniform in [0, 1) (default Math.random); injectable for tests. */
  random: () => number;
  /** Waits `ms` (default: a timer, ended early by the call's AbortSignal); injectable for tests. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Codes that mean the service refused the request before doing any of its work. */
const REFUSED_BEFORE_WORK = new Set(['rate_limited', 'concurrency_limited']);

/** Whether this failure lets the call be sent again. `error` is null for a lost answer. */
export function mayRetry(error: BlogApiError | null, idempotent: boolean): boolean {
  if (error === null) return idempotent;
  if (!error.retryable) return false;
  if (REFUSED_BEFORE_WORK.has(error.code)) return true;
  if (error.code === 'unexpected_response' && error.status === 503) return true;
  return idempotent;
}

/** Whether a call is idempotent by its method and headers (see the rule above). */
export function isIdempotent(method: string, headers: Record<string, string>, declared = false): boolean {
  return declared || method !== 'POST' || Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
}

export function backoffMs(
  attempt: number,
  baseDelayMs: number,
  capMs: number,
  random: () => number,
  retryAfterSeconds: number | null,
): number {
  const ceiling = Math.min(capMs, baseDelayMs * 2 ** attempt);
  const jittered = Math.floor(random() * ceiling);
  return retryAfterSeconds === null ? jittered : Math.max(retryAfterSeconds * 1000, jittered);
}

/** Retry-After as seconds (the service sends whole seconds; an HTTP date is read too). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
