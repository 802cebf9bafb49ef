export { EventFeed, counterQuery, presentEvent, typeCondition } from './event-feed.js';
export {
  EventIdParam,
  EventPageSchema,
  EventQuery,
  EventSchema,
  type EventQueryInput,
  type EventView,
} from './event-schemas.js';
export { parseTypeFilter, typeMatches, type TypeFilter } from './type-filter.js';
export * from './event-types.js';
export * from './event-outbox.js';
export * from './delivery-enqueue.js';
export * from './delivery-queue.js';
export { advanceFeedHorizons, deleteExpiredEvents } from './event-retention.js';
