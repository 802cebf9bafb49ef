export * from './cache.js';
export * from './versions.js';
export * from './shared-versions.js';
