export * from './housekeeping-service.js';
export * from './housekeeping-lease.js';
export * from './expired-rows.js';
