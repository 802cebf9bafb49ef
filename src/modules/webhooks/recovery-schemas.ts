import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, OffsetDateTime } from '../../lib/schema-kit.js';
import { DeliverySchema } from './webhook-schemas.js';

/** Events one replay may queue, at most (docs/webhooks.md, "Recovery"). */
export const REPLAY_MAX_EVENTS = 10_000;

export const DeliveryIdParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  delivery_id: Type.String({ minLength: 1, maxLength: 100 }),
});

export const AttemptSchema = Type.Object(
  {
    id: Type.String({ description: 'Starts with wha_' }),
    started_at: DateTime(),
    state: Type.String({
      enum: ['in_progress', 'succeeded', 'failed', 'interrupted'],
      description:
        'in_progress: being sent now; interrupted: the sending process stopped before an answer (the delivery is tried again)',
    }),
    duration_ms: Nullable(Type.Integer({ description: 'null while in progress or interrupted' })),
    response_status: Nullable(Type.Integer({ description: 'null when no answer arrived' })),
    error: Nullable(Type.String({ description: 'Why no answer arrived (refused, timed out, …); null otherwise' })),
    response_body: Nullable(Type.String({ description: 'The first 1 KB of the answer’s body' })),
  },
  { title: 'DeliveryAttempt' },
);
export type AttemptView = Static<typeof AttemptSchema>;

export const DeliveryDetailSchema = Type.Object(
  {
    ...DeliverySchema.properties,
    retry_of: Nullable(Type.String({ description: 'The delivery this one retries; null otherwise' })),
    attempt_history: Type.Array(AttemptSchema, { description: 'Every attempt, oldest first' }),
  },
  { title: 'DeliveryDetail' },
);
export type DeliveryDetailView = Static<typeof DeliveryDetailSchema>;

export const ReplayBody = Type.Object(
  {
    since: OffsetDateTime('Events recorded at or after this time'),
    until: Type.Optional(OffsetDateTime('Events recorded before this time; default: now')),
    types: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        description:
          'Event types or prefixes (`post.*`); default: every type. Only types the endpoint subscribes to are sent.',
      }),
    ),
  },
  { additionalProperties: false, title: 'WebhookReplay' },
);
export type ReplayInput = Static<typeof ReplayBody>;

export const ReplayResultSchema = Type.Object(
  {
    queued: Type.Integer({ description: 'Deliveries queued, one per matching event' }),
    first_sequence: Nullable(Type.Integer({ description: 'The feed sequence of the first event queued' })),
    last_sequence: Nullable(Type.Integer({ description: 'The feed sequence of the last event queued' })),
  },
  { title: 'WebhookReplayResult' },
);
export type ReplayResultView = Static<typeof ReplayResultSchema>;
