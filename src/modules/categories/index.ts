export * from './category-schemas.js';
export * from './category-service.js';
