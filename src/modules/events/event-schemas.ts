import { Type, type Static } from '@sinclair/typebox';
import { CONTENT_ACTIONS } from '../audit/index.js';

export const EVENT_PAGE_MAX = 100;
export const EVENT_PAGE_DEFAULT = 100;

export const EventSchema = Type.Object(
  {
    id: Type.String({ description: 'Starts with msg_; the webhook-id header of every delivery of this event' }),
    sequence: Type.Integer({ description: 'The event’s place in the store’s feed: only increases, in commit order' }),
    type: Type.String({ description: `One of ${CONTENT_ACTIONS.join(', ')} (more may come)` }),
    timestamp: Type.String({ description: 'When the change was made, in the store’s time zone (whole seconds)' }),
    handle: Type.String({ description: 'The store’s handle' }),
    data: Type.Unknown({ description: 'As in the webhook delivery: the resource as written; `{ id }` for a deletion' }),
  },
  { title: 'Event' },
);
export type EventView = Static<typeof EventSchema>;

export const EventIdParam = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The event’s id (msg_…): the `id` of a feed item, the webhook-id header of its deliveries',
  }),
});

export const EventQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description:
          'meta.next_cursor of the previous page, or any sequence: events after it. Absent: from the oldest event kept.',
      }),
    ),
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Comma-separated event types (`post.deleted`) or prefixes (`post.*`); absent: every type',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: EVENT_PAGE_MAX, default: EVENT_PAGE_DEFAULT })),
  },
  { additionalProperties: false },
);
export type EventQueryInput = Static<typeof EventQuery>;

export const EventPageSchema = Type.Object(
  {
    data: Type.Array(EventSchema),
    meta: Type.Object({
      next_cursor: Type.String({
        description: 'Always present, also on an empty page: pass it as `after` to continue (or to poll) from here',
      }),
      has_more: Type.Boolean({
        description: 'true: more events are already there; false: the feed is caught up, poll later with next_cursor',
      }),
      limit: Type.Integer({ description: 'The page size used' }),
    }),
  },
  { title: 'EventPage' },
);
export type EventPageView = Static<typeof EventPageSchema>;
