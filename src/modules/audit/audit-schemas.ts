import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, OffsetDateTime, PageMetaSchema, PageQuery } from '../../lib/schema-kit.js';
import { AUDIT_ACTIONS } from './audit-recorder.js';

export const AuditEventSchema = Type.Object(
  {
    id: Type.Integer(),
    occurred_at: DateTime(),
    action: Type.String({ description: `One of ${AUDIT_ACTIONS.join(', ')} (more may come)` }),
    resource_type: Type.String({ description: 'post, category, image or webhook (more may come)' }),
    resource_id: Type.String(),
    key_id: Nullable(Type.String()),
    application: Nullable(Type.String()),
    request_id: Nullable(Type.String()),
    changes: Type.Array(Type.String(), { description: 'Names of the fields written' }),
  },
  { title: 'AuditEvent' },
);

export const AuditQuerySchema = Type.Object(
  {
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    resource_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    key_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    since: Type.Optional(OffsetDateTime('Events at or after this time')),
    until: Type.Optional(OffsetDateTime('Events before this time')),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const AuditPageSchema = Type.Object(
  { data: Type.Array(AuditEventSchema), meta: PageMetaSchema },
  { title: 'AuditEventPage' },
);
