export * from './audit-recorder.js';
export * from './audit-schemas.js';
export * from './audit-service.js';
