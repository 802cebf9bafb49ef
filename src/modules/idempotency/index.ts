export * from './idempotency-service.js';
