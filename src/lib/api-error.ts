import { DEFAULT_MESSAGE_LANGUAGE, ERROR_CATALOGUE, messageOf, type ErrorCode } from './error-catalogue.js';

/** One field-level problem; `field` may be a body field, a query parameter or a header name. */
export interface ErrorDetail {
  field: string;
  issue: string;
}

/**
 * An API error (docs/api-behaviour.md). Framework-free: the HTTP layer turns it into the envelope
 * `{ error: { code, message, details, request_id, retryable } }`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  constructor(
    readonly code: ErrorCode,
    readonly details: ErrorDetail[] = [],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    // The default language's text, for logs; the envelope writes the message in the caller's language.
    super(messageOf(code, DEFAULT_MESSAGE_LANGUAGE));
    this.name = 'ApiError';
    this.status = ERROR_CATALOGUE[code].status;
    this.retryable = ERROR_CATALOGUE[code].retryable;
  }
}

export const detail = (field: string, issue: string): ErrorDetail => ({ field, issue });
