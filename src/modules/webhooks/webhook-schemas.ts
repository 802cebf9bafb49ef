import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, OffsetDateTime, PageMetaSchema, PageQuery } from '../../lib/schema-kit.js';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../events/index.js';
import { URL_MAX_LENGTH } from './target-check.js';
import { STORE_QUEUE_LIMIT } from '../events/index.js';

export const ENDPOINTS_PER_STORE = 10;
export const DESCRIPTION_MAX = 500;

const Events = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
  description: `Event types (${WEBHOOK_EVENT_TYPES.join(', ')}), or ["${ALL_EVENTS}"] for all, including types added later`,
});
const Url = Type.String({
  minLength: 1,
  maxLength: URL_MAX_LENGTH,
  description: 'https; the host must resolve to public addresses',
});
const Description = Nullable(Type.String({ maxLength: DESCRIPTION_MAX }));

const endpointFields = {
  id: Type.String({ description: 'Starts with wh_' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(Type.String({ description: 'Why the service disabled the endpoint; null otherwise' })),
  circuit_open_until: Nullable(
    DateTime(
      'Circuit breaker: after 3 attempts in a row with no answer within 10 s, no delivery is sent to the endpoint until this time; the next attempt then is a trial. null while closed',
    ),
  ),
  created_at: DateTime(),
  updated_at: DateTime(),
};

export const WebhookEndpointSchema = Type.Object(endpointFields, { title: 'WebhookEndpoint' });
export type WebhookEndpointView = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description: 'whsec_ + base64 (Standard Webhooks). Shown in this response only: keep it now',
    }),
  },
  { title: 'WebhookEndpointWithSecret' },
);

export const WebhookEndpointListSchema = Type.Object(
  { data: Type.Array(WebhookEndpointSchema) },
  { title: 'WebhookEndpointList' },
);

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  { additionalProperties: false, title: 'NewWebhookEndpoint' },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const TestWebhookBody = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        enum: [...WEBHOOK_EVENT_TYPES],
        description:
          "The event type to send: `webhook.test` (the default) or a sample of a content event type, whose data is the store's newest resource of that kind as it is now (for a deletion, its id). Samples are not in the events feed.",
      }),
    ),
  },
  {
    additionalProperties: false,
    'x-optional-body': true,
    title: 'TestWebhookRequest',
    description: 'Optional: without a body a webhook.test event is sent',
  },
);
export type TestWebhookInput = Static<typeof TestWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: 'true also clears disabled_reason' })),
  },
  { additionalProperties: false, minProperties: 1, title: 'WebhookEndpointChanges' },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const WebhookIdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'Starts with whd_' }),
    event_id: Type.String({ description: 'The webhook-id header of every attempt' }),
    event_type: Type.String(),
    status: Type.String({ enum: ['pending', 'succeeded', 'failed'] }),
    attempts: Type.Integer(),
    last_attempt_at: Nullable(DateTime()),
    last_response_status: Nullable(Type.Integer({ description: 'null when no answer arrived (refused, timed out)' })),
    next_attempt_at: Nullable(
      DateTime('When a pending delivery is tried next; null otherwise (and while it is held: see waiting_reason)'),
    ),
    waiting_reason: Type.Unsafe<'store_queue_full' | 'circuit_open' | null>({
      type: ['string', 'null'],
      enum: ['store_queue_full', 'circuit_open', null],
      description: `Why a pending delivery is not being sent: held because the store already has ${STORE_QUEUE_LIMIT} deliveries queued (sent as the queue drains), or the endpoint’s circuit is open (see circuit_open_until); null otherwise`,
    }),
    created_at: DateTime(),
  },
  { title: 'Delivery' },
);
export type DeliveryView = Static<typeof DeliverySchema>;

export const DeliveryListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.String({ enum: ['pending', 'succeeded', 'failed'], description: 'Only deliveries in this state' }),
    ),
    event_type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Only deliveries of this event type, or of a prefix such as `post.*`',
      }),
    ),
    since: Type.Optional(OffsetDateTime('Deliveries created at or after this time')),
    until: Type.Optional(OffsetDateTime('Deliveries created before this time')),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type DeliveryListQueryInput = Static<typeof DeliveryListQuery>;

export const DeliveryPageSchema = Type.Object(
  { data: Type.Array(DeliverySchema), meta: PageMetaSchema },
  { title: 'DeliveryPage' },
);
