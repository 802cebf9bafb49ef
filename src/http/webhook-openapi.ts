// The OpenAPI 3.1 `webhooks` section: one entry per event type, describing the POST a receiver
// gets (headers per Standard Webhooks, the body and its `data`).
import { Type, type TSchema } from '@sinclair/typebox';
import { DateTime } from '../lib/schema-kit.js';
import { CategorySchema } from '../modules/categories/index.js';
import { ImageSchema } from '../modules/media/image-schemas.js';
import { PostSchema } from '../modules/posts/index.js';
import { type WebhookEventType } from '../modules/events/index.js';
import { WebhookEndpointSchema } from '../modules/webhooks/index.js';

const DATA: Record<WebhookEventType, { data: TSchema; about: string }> = {
  'post.created': { data: PostSchema, about: 'A post was created (always a draft).' },
  'post.updated': { data: PostSchema, about: 'A post’s content, categories or cover changed.' },
  'post.published': {
    data: PostSchema,
    about:
      'A post was published now or back-dated, or a scheduled post’s time arrived (within seconds of published_at, once).',
  },
  'post.scheduled': { data: PostSchema, about: 'A post was given a future publish time.' },
  'post.unpublished': { data: PostSchema, about: 'A published or scheduled post returned to draft.' },
  'post.deleted': {
    data: Type.Object({ id: Type.Integer() }),
    about: 'A draft was deleted; data carries its id only.',
  },
  'category.created': { data: CategorySchema, about: 'A category was created.' },
  'category.updated': {
    data: CategorySchema,
    about: 'A category was renamed or moved (PATCH /v1/blog/categories/{id}).',
  },
  'category.deleted': {
    data: Type.Object({ id: Type.Integer() }),
    about: 'A category was deleted; data carries its id only. Each post that lost it sends a post.updated first.',
  },
  'image.uploaded': { data: ImageSchema, about: 'An image was uploaded.' },
  'image.deleted': { data: ImageSchema, about: 'An image was deleted; its url no longer serves it.' },
  'webhook.test': {
    data: WebhookEndpointSchema,
    about: 'Sent by POST /v1/webhooks/{id}/test to that endpoint only; data is the endpoint.',
  },
};

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
});

const HEADERS = [
  header('webhook-id', 'The event id (msg_…): the same on every retry; use it to drop duplicates'),
  header('webhook-timestamp', 'Unix seconds of this attempt'),
  header(
    'webhook-signature',
    'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live',
  ),
  header('X-Store-Handle', 'The handle of the store the event belongs to'),
  {
    ...header(
      'X-Event-Sequence',
      'The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test',
    ),
    required: false,
  },
];

export function webhookEventDocs(): Record<string, never> {
  // Plain JSON Schema and OpenAPI objects; typed loosely for the generator's option.
  return Object.fromEntries(
    Object.entries(DATA).map(([type, { data, about }]) => [
      type,
      {
        post: {
          tags: ['webhooks'],
          // post.created → postCreatedEvent
          operationId: `${type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}Event`,
          summary: type,
          description: `${about} Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.`,
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: Type.Object({
                  type: Type.Literal(type),
                  timestamp: DateTime('When the event happened, with the store’s offset'),
                  data,
                }),
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx answer within 10 seconds means received; anything else is retried' },
          },
          security: [],
        },
      },
    ]),
  ) as Record<string, never>;
}
