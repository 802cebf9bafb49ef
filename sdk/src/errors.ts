import type { components } from './generated/openapi.js';

type Envelope = components['schemas']['ErrorEnvelope']['error'];

/** The codes the service answers with. */
export type ServiceErrorCode = Envelope['code'];
/**
 * The code of a BlogApiError: the service's codes, and `unexpected_response` for an answer
 * without the service's error envelope (a proxy's page, a body that is not JSON). A code the
 * service adds later still arrives, as a plain string.
 */
export type ErrorCode = ServiceErrorCode | 'unexpected_response' | (string & {});
/** The code of a BlogConnectionError: no answer arrived (`network_error`) or not in time (`timeout`). */
export type ConnectionErrorCode = 'network_error' | 'timeout';
/** Every code an error thrown by this SDK can carry. */
export type SdkErrorCode = ErrorCode | ConnectionErrorCode;

export interface ErrorDetail {
  field: string;
  issue: string;
}

/** Every answer that is not 2xx (after retries, when it was retried). */
export class BlogApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  /** The service's request id (also X-Request-Id): quote it to the operators. */
  readonly requestId: string | null;
  readonly retryable: boolean;
  /** Seconds from Retry-After, when the answer had one: how long the service asked to wait. */
  readonly retryAfterSeconds: number | null;
  /** How many times the request was sent (1 when it was not retried). */
  attempts = 1;

  constructor(
    status: number,
    error: { code: string; message: string; details?: ErrorDetail[]; request_id?: string | null; retryable?: boolean },
    retryAfterSeconds: number | null = null,
  ) {
    super(error.message);
    this.name = 'BlogApiError';
    this.status = status;
    this.code = error.code;
    this.details = error.details ?? [];
    this.requestId = error.request_id ?? null;
    this.retryable = error.retryable ?? false;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The issue of the first detail about `field`, if any. */
  detail(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.issue;
  }
}

/**
 * No answer: the connection failed or broke (`network_error`), or the answer did not arrive
 * within `timeoutMs` (`timeout`), on the last attempt. `cause` holds the underlying error of
 * that attempt (fetch's TypeError, the timeout).
 */
export class BlogConnectionError extends Error {
  readonly code: ConnectionErrorCode;
  /** How many times the request was sent. */
  readonly attempts: number;
  /** The request id, when the answer's headers arrived before it broke off. */
  readonly requestId: string | null;
  readonly method: string;
  /** The path and query that were asked for. */
  readonly path: string;
  /**
   * True when a browser refused the call in a way that is most often CORS: fetch threw a
   * TypeError, with no answer, from a page whose origin differs from the service's (cors.ts).
   * Such a call is not retried, and the message says so.
   */
  readonly corsSuspected: boolean;

  constructor(
    code: ConnectionErrorCode,
    message: string,
    init: {
      attempts: number;
      cause: unknown;
      requestId?: string | null;
      method: string;
      path: string;
      corsSuspected?: boolean;
    },
  ) {
    super(message, { cause: init.cause });
    this.name = 'BlogConnectionError';
    this.code = code;
    this.attempts = init.attempts;
    this.requestId = init.requestId ?? null;
    this.method = init.method;
    this.path = init.path;
    this.corsSuspected = init.corsSuspected ?? false;
  }
}
