export * from './store-settings.js';
export * from './store-service.js';
// The schedule scan (posts) reads a store by id inside its own transaction.
export { findStoreById } from './store-repository.js';
