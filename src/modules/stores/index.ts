export * from './store-settings.js';
export * from './store-service.js';
export * from './allowed-origins.js';
export { KnownOrigins, KNOWN_ORIGINS_REFRESH_MS } from './known-origins.js';
// The schedule scan (posts) reads a store by id inside its own transaction.
export { findStoreById } from './store-repository.js';
