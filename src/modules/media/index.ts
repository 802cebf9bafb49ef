export * from './image-refs.js';
export * from './image-lookup.js';
export * from './image-schemas.js';
export * from './media-store.js';
export * from './local-media-store.js';
export * from './media-settings.js';
export * from './media-service.js';
export * from './upload-reader.js';
