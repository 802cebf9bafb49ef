export * from './store-settings.js';
export * from './store-service.js';
