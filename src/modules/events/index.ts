export { EventFeed, counterQuery, presentEvent, typeCondition } from './event-feed.js';
export {
  EventIdParam,
  EventPageSchema,
  EventQuery,
  EventSchema,
  type EventQueryInput,
  type EventView,
} from './event-schemas.js';
export { parseTypeFilter, type TypeFilter } from './type-filter.js';
