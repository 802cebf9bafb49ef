export * from './quota-service.js';
