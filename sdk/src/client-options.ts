// The options every client of the SDK takes (BlogClient, ContentClient) and the transport they
// build from them, in one place so that both behave alike.
import type { RetryOptions } from './retry.js';
import { Transport, type RequestEvent, type ResponseEvent, type Timers } from './transport.js';

export interface ClientOptions {
  /** The service's address, e.g. `https://blog.example.com` (no `/v1`). */
  baseUrl: string;
  /** The API key, `svc_live_<key_id>_<secret>`. Sent only in the Authorization header. */
  apiKey: string;
  /** Longest wait in ms for each attempt's answer, body included (default 60 000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /**
   * Longest wait in ms before a retry (default 5 000). The back-off never waits longer, and an
   * answer whose Retry-After asks for longer is not retried: its error is thrown at once, with
   * `retryAfterSeconds` telling the wait.
   */
  maxRetryDelayMs?: number;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
  /** Called before each attempt (for logging; an exception from it is ignored). */
  onRequest?: (event: RequestEvent) => void;
  /** Called after each attempt, answered or not (for logging and metrics; an exception from it is ignored). */
  onResponse?: (event: ResponseEvent) => void;
  /** Back-off tuning and, for tests, the random source and the sleep. */
  retry?: Partial<RetryOptions>;
  /** The timers of the timeouts (default the global setTimeout/clearTimeout); for tests. */
  timers?: Timers;
}

const DEFAULTS = { timeoutMs: 60_000, maxRetries: 3, maxRetryDelayMs: 5_000, baseDelayMs: 500 };

const globalTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function timerSleep(timers: Timers) {
  return (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        timers.clearTimeout(handle);
        reject(signal?.reason);
      };
      const handle = timers.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}

function positive(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0))
    throw new TypeError(`${name} must be a ${allowZero ? 'number ≥ 0' : 'number > 0'}`);
  return value;
}

/** The transport of a client made with `options`; throws a TypeError for a bad option. */
export function createTransport(options: ClientOptions): Transport {
  if (!options.baseUrl) throw new TypeError('baseUrl is required');
  if (!options.apiKey) throw new TypeError('apiKey is required');
  const timers = options.timers ?? globalTimers;
  return new Transport({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs),
    maxRetries: positive('maxRetries', options.maxRetries, DEFAULTS.maxRetries, true),
    maxRetryDelayMs: positive('maxRetryDelayMs', options.maxRetryDelayMs, DEFAULTS.maxRetryDelayMs, true),
    retry: {
      baseDelayMs: options.retry?.baseDelayMs ?? DEFAULTS.baseDelayMs,
      random: options.retry?.random ?? Math.random,
      sleep: options.retry?.sleep ?? timerSleep(timers),
    },
    timers,
    onRequest: options.onRequest,
    onResponse: options.onResponse,
  });
}
