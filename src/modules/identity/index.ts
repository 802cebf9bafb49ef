export * from './identity-schemas.js';
export * from './identity-service.js';
