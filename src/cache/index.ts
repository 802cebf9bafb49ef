export * from './cache.js';
export * from './topics.js';
export * from './versions.js';
export * from './shared-versions.js';
