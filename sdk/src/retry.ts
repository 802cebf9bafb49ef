// When and how long to wait before trying a request again.
//
// Retried: network failures and answers with `retryable: true` (rate_limited,
// concurrency_limited, idempotency_in_progress, internal_error), and a 502/503/504 with no
// envelope (a proxy in front of the service). Never: any other error, quota_exceeded included,
// and never a POST sent without an Idempotency-Key (it might have been carried out).
// The wait is "full jitter": a random time between 0 and min(cap, base × 2^attempt), and at
// least Retry-After when the answer had one.

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** First back-off step in ms (default 500). */
  baseDelayMs: number;
  /** Largest back-off in ms (default 20 000); Retry-After is honoured even above it. */
  maxDelayMs: number;
  /** Uniform in [0, 1) (default Math.random); injectable for tests. */
  random: () => number;
  /** Waits `ms` (default setTimeout); injectable for tests. */
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  random: Math.random,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Whether a request may be sent again at all: a POST only with an Idempotency-Key. */
export function mayResend(method: string, headers: Record<string, string>): boolean {
  return method !== 'POST' || Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
}

export function backoffMs(attempt: number, options: RetryOptions, retryAfterSeconds: number | null): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  const jittered = Math.floor(options.random() * ceiling);
  return retryAfterSeconds === null ? jittered : Math.max(retryAfterSeconds * 1000, jittered);
}

/** Retry-After as seconds (the service sends whole seconds; an HTTP date is read too). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
