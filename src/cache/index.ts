export * from './cache.js';
export * from './versions.js';
