import type { components } from './generated/openapi.js';

type Envelope = components['schemas']['ErrorEnvelope']['error'];

/** The contract's error codes; a code added later still arrives, as a plain string. */
export type ErrorCode = Envelope['code'] | (string & {});

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
  /** Seconds from Retry-After, when the answer had one. */
  readonly retryAfterSeconds: number | null;
  /** How many times the request was sent (1 when it was not retried). */
  attempts = 1;

  constructor(status: number, error: { code: string; message: string; details?: ErrorDetail[]; request_id?: string | null; retryable?: boolean }, retryAfterSeconds: number | null = null) {
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
