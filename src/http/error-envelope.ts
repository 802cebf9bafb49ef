import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError } from '../db/database-errors.js';
import { ApiError, detail, type ErrorDetail } from '../lib/api-error.js';
import { DEFAULT_MESSAGE_LANGUAGE, messageOf, type MessageLanguage } from '../lib/error-catalogue.js';
import { messageLanguageOf } from '../lib/message-language.js';
import { MAX_DETAIL_TEXT_CHARS, MAX_DETAILS, MAX_DETAILS_JSON_BYTES } from '../lib/request-bounds.js';
import { detailsFromAjv } from './validation.js';

/**
 * The error envelope (docs/api-behaviour.md): `{ error: { code, message, details, request_id, retryable } }`.
 * Every answer's details pass through here, so this is where their size is bounded, whatever
 * the input they echo: each `field` and `issue` cut to MAX_DETAIL_TEXT_CHARS, at most
 * MAX_DETAILS details and MAX_DETAILS_JSON_BYTES of them; `details_truncated: true` is added
 * when some were left out.
 */
export function envelopeOf(err: ApiError, requestId: string, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE) {
  const { details, truncated } = listedDetails(err.details);
  return {
    error: {
      code: err.code,
      message: messageOf(err.code, language),
      details,
      ...(truncated ? { details_truncated: true as const } : {}),
      request_id: requestId,
      retryable: err.retryable,
    },
  };
}

/** The details an answer lists, each cut, in order until either bound is reached. */
function listedDetails(all: ErrorDetail[]): { details: ErrorDetail[]; truncated: boolean } {
  const details: ErrorDetail[] = [];
  let bytes = 0;
  for (const d of all) {
    if (details.length === MAX_DETAILS) return { details, truncated: true };
    const listed = { field: cutText(d.field), issue: cutText(d.issue) };
    bytes += Buffer.byteLength(JSON.stringify(listed)) + 1;
    if (bytes > MAX_DETAILS_JSON_BYTES) return { details, truncated: true };
    details.push(listed);
  }
  return { details, truncated: false };
}

const ELLIPSIS = '\u2026';

/**
 * `text` when it has at most MAX_DETAIL_TEXT_CHARS characters (code points); else its first
 * MAX_DETAIL_TEXT_CHARS − 1 and an ellipsis. Reads at most that many characters of `text`,
 * however long it is.
 */
function cutText(text: string): string {
  if (text.length <= MAX_DETAIL_TEXT_CHARS) return text;
  let at = 0;
  let keep = 0;
  for (let chars = 0; at < text.length; chars++) {
    if (chars === MAX_DETAIL_TEXT_CHARS - 1) keep = at;
    // A character past the limit exists: cut.
    if (chars === MAX_DETAIL_TEXT_CHARS) return text.slice(0, keep) + ELLIPSIS;
    at += text.codePointAt(at)! > 0xffff ? 2 : 1;
  }
  return text;
}

/**
 * Maps anything thrown into an API error. The API has no 400: every framework error
 * (bad JSON, wrong content type, body too large, schema failure) gets an API error code.
 */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  // The database could not be used (a busy pool, its breaker open, no answer in time): retryable.
  if (err instanceof DatabaseUnavailableError)
    return new ApiError('service_unavailable', [], { 'Retry-After': String(err.retryAfterSeconds) });
  const e = err as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (Array.isArray(e?.validation)) {
    return new ApiError('validation_failed', detailsFromAjv(e.validation as never, e.validationContext));
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError('content_too_large', [detail('body', 'exceeds the size this endpoint accepts')]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ApiError('validation_failed', [detail('Content-Type', 'must be application/json')]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('validation_failed', [detail('body', 'must be a JSON object')]);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('validation_failed', [detail('body', 'is not valid JSON')]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('validation_failed', [detail('Content-Length', 'does not match the body sent')]);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError('validation_failed', [detail('Content-Type', 'must be multipart/form-data')]);
  }
  // Body parsers report malformed JSON as a SyntaxError with a 400 status.
  if (e instanceof SyntaxError || (e?.statusCode === 400 && /JSON/i.test(e?.message ?? ''))) {
    return new ApiError('validation_failed', [detail('body', 'is not valid JSON')]);
  }
  if (e?.statusCode === 413)
    return new ApiError('content_too_large', [detail('body', 'exceeds the size this endpoint accepts')]);
  if (e?.statusCode === 415)
    return new ApiError('validation_failed', [detail('Content-Type', 'is not accepted by this endpoint')]);
  if (e?.statusCode === 404) return new ApiError('not_found');
  if (e?.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiError('validation_failed', [detail('body', 'could not be read')]);
  }
  return null;
}

export function sendApiError(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  // The message's language follows Accept-Language (src/lib/message-language.ts) and is named.
  const language = messageLanguageOf(request.headers['accept-language']);
  return reply
    .code(err.status)
    .type('application/json; charset=utf-8')
    .header('Content-Language', language)
    .send(envelopeOf(err, String(request.id), language));
}

export function errorHandler(this: unknown, err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const apiError = toApiError(err);
  if (apiError) {
    // A database outage is logged once per kind and minute by its health report, not per request.
    if (apiError.status >= 500 && apiError.code !== 'service_unavailable') request.log.error({ err }, 'request failed');
    return sendApiError(request, reply, apiError);
  }
  request.log.error({ err }, 'unexpected error');
  return sendApiError(request, reply, new ApiError('internal_error'));
}
