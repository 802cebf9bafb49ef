// Sends one call of the API: builds the request, applies the timeout and the caller's
// AbortSignal to each attempt, retries as retry.ts says, tells the hooks, and turns every
// failure into a BlogApiError or a BlogConnectionError.
import { BlogApiError, BlogConnectionError, type ErrorDetail } from './errors.js';
import { corsSuspicion, type CorsSuspicion } from './cors.js';
import { backoffMs, isIdempotent, mayRetry, parseRetryAfter, type RetryOptions } from './retry.js';

/** Options every method takes as its last argument; each overrides the client's for this call. */
export interface RequestOptions {
  /** Longest wait in ms for each attempt's answer, body included (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Cancels the call, its retries and its waits: the call rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Retries after the first attempt (default: the client's `maxRetries`); 0: send once. */
  maxRetries?: number;
}

/** What a request hook is told, before each attempt. */
export interface RequestEvent {
  /** GET, POST, PATCH or DELETE. */
  method: string;
  /** The full address, query included (the API key is never in it). */
  url: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The Idempotency-Key sent, if any (the same on every attempt of a call). */
  idempotencyKey: string | null;
}

/** What a response hook is told, after each attempt: an answer (`status`) or none (`error`). */
export interface ResponseEvent {
  /** GET, POST, PATCH or DELETE. */
  method: string;
  /** The full address, query included. */
  url: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The HTTP status, or null when no answer arrived. */
  status: number | null;
  /** X-Request-Id of the answer, when there was one. */
  requestId: string | null;
  /** The answer's headers (X-RateLimit-*, Retry-After, …), error answers included; null when no answer arrived. */
  headers: Headers | null;
  /** From sending to the whole answer read (or to the failure). */
  durationMs: number;
  /** When no answer arrived: what went wrong (`network_error` or `timeout`). */
  error: BlogConnectionError | null;
  /** Whether the SDK will send the request again. */
  willRetry: boolean;
}

/** Timers the client uses for its timeouts; injectable for tests. */
export interface Timers {
  /** Calls `callback` after `ms`; returns a handle for clearTimeout. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer set by setTimeout. */
  clearTimeout(handle: unknown): void;
}

export interface TransportSettings {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  retry: RetryOptions;
  timers: Timers;
  onRequest: ((event: RequestEvent) => void) | undefined;
  onResponse: ((event: ResponseEvent) => void) | undefined;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined | null> | undefined;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** A POST the service de-duplicates by itself, so a lost answer may be retried. */
  idempotent?: boolean;
  options?: RequestOptions | undefined;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** What one attempt ended with. */
type Outcome =
  | { kind: 'answer'; answer: Answer }
  | { kind: 'error'; error: BlogApiError; headers: Headers | null }
  | {
      kind: 'lost';
      code: 'network_error' | 'timeout';
      cause: unknown;
      requestId: string | null;
      cors: CorsSuspicion | null;
    };

export class Transport {
  constructor(private readonly settings: TransportSettings) {}

  /** Sends a call; resolves with its 2xx answer or throws after the retries it may have. */
  async send(call: Call): Promise<Answer> {
    const s = this.settings;
    const url = new URL(s.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {}))
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {
      authorization: `Bearer ${s.apiKey}`,
      accept: 'application/json',
      ...call.headers,
    };
    let body: string | FormData | null = call.form ?? null;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    }
    const signal = call.options?.signal;
    const timeoutMs = call.options?.timeoutMs ?? s.timeoutMs;
    const maxRetries = call.options?.maxRetries ?? s.maxRetries;
    const idempotent = isIdempotent(call.method, headers, call.idempotent);
    const idempotencyKey = Object.entries(headers).find(([h]) => h.toLowerCase() === 'idempotency-key')?.[1] ?? null;
    const path = url.pathname + url.search;

    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      hook(s.onRequest, { method: call.method, url: url.href, attempt: attempt + 1, idempotencyKey });
      const started = Date.now();
      const outcome = await this.attempt(url, { method: call.method, headers, body }, timeoutMs, signal);
      const failure = outcome.kind === 'answer' ? null : outcome.kind === 'error' ? outcome.error : null;
      // A probable CORS refusal is not sent again: the browser would refuse it again at once.
      const retry =
        outcome.kind !== 'answer' &&
        attempt < maxRetries &&
        !(outcome.kind === 'lost' && outcome.cors) &&
        mayRetry(failure, idempotent);
      const retryAfter = failure?.retryAfterSeconds ?? null;
      // A Retry-After past the cap is not waited for: the error goes to the caller, who is told the wait.
      const tooLong = retry && retryAfter !== null && retryAfter * 1000 > s.maxRetryDelayMs;
      const willRetry = retry && !tooLong;
      const connectionError =
        outcome.kind === 'lost' ? toConnectionError(outcome, call.method, path, attempt + 1) : null;
      hook(s.onResponse, {
        method: call.method,
        url: url.href,
        attempt: attempt + 1,
        status:
          outcome.kind === 'answer' ? outcome.answer.status : outcome.kind === 'error' ? outcome.error.status : null,
        requestId:
          outcome.kind === 'answer'
            ? outcome.answer.headers.get('x-request-id')
            : outcome.kind === 'error'
              ? outcome.error.requestId
              : outcome.requestId,
        headers: outcome.kind === 'answer' ? outcome.answer.headers : outcome.kind === 'error' ? outcome.headers : null,
        durationMs: Date.now() - started,
        error: connectionError,
        willRetry,
      });
      if (outcome.kind === 'answer') return outcome.answer;
      if (!willRetry) {
        if (outcome.kind === 'error') {
          outcome.error.attempts = attempt + 1;
          throw outcome.error;
        }
        // Neither an answer nor an error answer: the connection was lost, so connectionError is set.
        throw connectionError!;
      }
      await s.retry.sleep(
        backoffMs(attempt, s.retry.baseDelayMs, s.maxRetryDelayMs, s.retry.random, retryAfter),
        signal,
      );
    }
  }

  /** One attempt, bounded by the timeout and the caller's signal (which rejects it with its reason). */
  private async attempt(
    url: URL,
    init: { method: string; headers: Record<string, string>; body: string | FormData | null },
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeout = new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError');
    const timer = this.settings.timers.setTimeout(() => controller.abort(timeout), timeoutMs);
    let requestId: string | null = null;
    let headers: Headers | null = null;
    try {
      const res = await this.settings.fetch(url, { ...init, signal: controller.signal });
      requestId = res.headers.get('x-request-id');
      headers = res.headers;
      if (res.ok) return { kind: 'answer', answer: await toAnswer(res) };
      return { kind: 'error', error: await toError(res), headers };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.aborted && controller.signal.reason === timeout)
        return { kind: 'lost', code: 'timeout', cause: timeout, requestId, cors: null };
      if (err instanceof BlogApiError) return { kind: 'error', error: err, headers };
      const cors = headers === null ? corsSuspicion(err, url) : null;
      return { kind: 'lost', code: 'network_error', cause: err, requestId, cors };
    } finally {
      this.settings.timers.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function hook<E>(fn: ((event: E) => void) | undefined, event: E): void {
  if (!fn) return;
  try {
    fn(event);
  } catch {
    // A logging hook never changes a call's outcome.
  }
}

function toConnectionError(
  lost: { code: 'network_error' | 'timeout'; cause: unknown; requestId: string | null; cors: CorsSuspicion | null },
  method: string,
  path: string,
  attempts: number,
): BlogConnectionError {
  const cause = lost.cause instanceof Error ? lost.cause.message : String(lost.cause);
  const what =
    lost.code === 'timeout'
      ? 'no answer within the timeout'
      : lost.cors
        ? `the browser blocked the call or could not send it (${cause}). From a page at ${lost.cors.pageOrigin} ` +
          `to ${lost.cors.apiOrigin} this is most often CORS: the service must allow the origin ` +
          `${lost.cors.pageOrigin} (the browser's console names the reason); otherwise the network is down`
        : `the connection failed (${cause})`;
  return new BlogConnectionError(
    lost.code,
    `${method} ${path}: ${what}, after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
    { attempts, cause: lost.cause, requestId: lost.requestId, method, path, corsSuspected: lost.cors !== null },
  );
}

async function toAnswer(res: Response): Promise<Answer> {
  const text = res.status === 204 || res.status === 304 ? '' : await res.text();
  if (text === '') return { status: res.status, headers: res.headers, body: undefined };
  try {
    return { status: res.status, headers: res.headers, body: JSON.parse(text) };
  } catch {
    throw new BlogApiError(res.status, {
      code: 'unexpected_response',
      message: `HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      request_id: res.headers.get('x-request-id'),
    });
  }
}

/** Statuses a proxy answers without our envelope when the service is briefly unreachable. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

async function toError(res: Response): Promise<BlogApiError> {
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
  const headerRequestId = res.headers.get('x-request-id');
  const text = await res.text();
  let envelope:
    | { error?: { code?: unknown; message?: unknown; details?: unknown; request_id?: unknown; retryable?: unknown } }
    | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  const e = envelope?.error;
  if (e && typeof e.code === 'string' && typeof e.message === 'string') {
    const requestId = typeof e.request_id === 'string' ? e.request_id : headerRequestId;
    return new BlogApiError(
      res.status,
      {
        code: e.code,
        message: e.message,
        details: Array.isArray(e.details) ? (e.details as ErrorDetail[]) : [],
        request_id: requestId,
        retryable: e.retryable === true,
      },
      retryAfter,
    );
  }
  const message = `HTTP ${res.status} without the service's error envelope${text ? `: ${text.slice(0, 200)}` : ''}`;
  return new BlogApiError(
    res.status,
    { code: 'unexpected_response', message, request_id: headerRequestId, retryable: GATEWAY_STATUSES.has(res.status) },
    retryAfter,
  );
}
