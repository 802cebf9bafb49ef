export * from './quota-service.js';
export * from './quota-repository.js';
