// Building blocks for route schemas (TypeBox → JSON Schema). One definition validates the
// request, types the handler and becomes the OpenAPI document, so they cannot drift.
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from './error-catalogue.js';

/**
 * `T | null` written as a JSON Schema type array (`["string","null"]`), valid OpenAPI 3.1 and
 * far clearer in validation errors than an anyOf.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const base = schema as unknown as { type?: string | string[] };
  if (typeof base.type !== 'string') throw new Error('Nullable() needs a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [base.type, 'null'] });
}

/** A time in an answer: RFC 3339 with the store's offset (or +08:00 for Taipei times). */
export const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', description, examples: ['2026-09-14T10:00:00+08:00'] });

/**
 * An ISO 8601 date-time that must carry an offset (validated by our own format; the OpenAPI
 * document calls it `date-time`, which means the same: RFC 3339 requires the offset).
 */
export const OffsetDateTime = (description?: string) =>
  Type.String({ format: 'offset-date-time', description, examples: ['2026-09-14T10:00:00+08:00'] });

/** Each text may echo input; the envelope cuts it to 200 characters (docs/api-behaviour.md, "Bounded work per request"). */
const detailText = (description: string) => Type.String({ maxLength: 200, description });
export const ErrorDetailSchema = Type.Object({
  field: detailText('The field, query parameter or header at fault; one longer than 200 characters ends in `…`'),
  issue: detailText('What is wrong with it; one longer than 200 characters ends in `…`'),
});

export const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({
        enum: ERROR_CODES,
        description:
          'Error code; clients branch on it. New codes may be added: handle an unknown one by its status and `retryable`.',
      }),
      message: Type.String({
        description:
          'Explanation with a next step, in Traditional Chinese, or in English when Accept-Language asks for it (Content-Language names which); wording may change.',
      }),
      details: Type.Array(ErrorDetailSchema, {
        maxItems: 100,
        description:
          'Field-level problems and data for the next step; `field` may name a body field, a query parameter or a header. At most 100 entries, and no more than 12,000 bytes of them as JSON: every error answer is under 16 KB.',
      }),
      details_truncated: Type.Optional(
        Type.Literal(true, {
          description:
            'Present (true) only when more problems were found than details lists (at most 100, and at most 12,000 bytes of them)',
        }),
      ),
      request_id: Type.String({ description: 'Also in the X-Request-Id header; quote it to the operators' }),
      retryable: Type.Boolean({
        description: 'Whether the same request may succeed later (after Retry-After when sent)',
      }),
    }),
  },
  {
    $id: 'ErrorEnvelope',
    title: 'ErrorEnvelope',
    examples: [
      {
        error: {
          code: 'validation_failed',
          message: '請求欄位驗證失敗。請依 details 逐一修正欄位後再送出。',
          details: [{ field: 'title', issue: 'must be 1 to 200 characters after trimming' }],
          request_id: 'req_8Qm2T4w9Lx0Vb7Yc',
          retryable: false,
        },
      },
    ],
  },
);

/** Response schemas for the error codes a route can answer, grouped by status. */
export function errorResponses(codes: ErrorCode[]): Record<number, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, unknown> = {};
  for (const [status, list] of byStatus) {
    out[status] = { ...Type.Ref('ErrorEnvelope'), description: `Error codes: ${list.join(', ')}` };
  }
  return out;
}

export const PageMetaSchema = Type.Object({
  next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  limit: Type.Integer({ description: 'The page size used' }),
});

export const PageQuery = {
  cursor: Type.Optional(Type.String({ minLength: 1, description: 'The previous page’s meta.next_cursor, unchanged.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
};

/** Errors every authenticated /v1 route can answer, by the pipeline's order. */
export const PIPELINE_ERRORS: ErrorCode[] = [
  'unauthorized',
  'insufficient_scope',
  'rate_limited',
  'concurrency_limited',
  'service_unavailable',
  'internal_error',
];
export const GATED_ERRORS: ErrorCode[] = [
  ...PIPELINE_ERRORS,
  'tenant_not_certified',
  'tenant_schema_changed',
  'validation_failed',
];

export const IdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/**
 * The Idempotency-Key header of create endpoints, for the description only: its presence and
 * shape are checked by the idempotency step so that it answers with the documented details.
 */
export const IdempotencyHeader = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      description: 'Required: 1–255 printable ASCII characters identifying this creation',
    },
  },
};
