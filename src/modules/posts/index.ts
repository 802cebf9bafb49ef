export * from './post-schemas.js';
export * from './post-state.js';
export * from './post-service.js';
export * from './post-lifecycle.js';
export { filterPostHtml, PostHtmlNestingError } from './html-filter.js';
export * from './post-read-cache.js';
export * from './html-filter-pool.js';
export * from './post-precondition.js';
export { publishDueSchedules } from './schedule-scan.js';
// What other modules read of posts: categories present a post that lost a category; housekeeping
// drops duplicate-window rows past the window.
export { findPost } from './post-repository.js';
export { presentPost } from './post-presenter.js';
export { DUPLICATE_WINDOW_MS } from './duplicate-window.js';
export { ProductLinks } from './product-links.js';
