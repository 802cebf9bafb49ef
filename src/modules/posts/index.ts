export * from './post-schemas.js';
export * from './post-state.js';
export * from './post-service.js';
export * from './post-lifecycle.js';
export { filterPostHtml, PostHtmlNestingError } from './html-filter.js';
export * from './post-read-cache.js';
export * from './html-filter-pool.js';
export * from './post-precondition.js';
