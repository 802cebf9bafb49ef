export * from './key-format.js';
export * from './scopes.js';
export * from './key-service.js';
export * from './key-expiry.js';
