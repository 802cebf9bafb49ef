import type { AppConfig } from '../../config/config.js';
import { LocalMediaStore } from './local-media-store.js';
import type { MediaStore } from './media-store.js';
import { S3MediaStore } from './s3-media-store.js';

/** The store MEDIA_STORE names: the local folder (the embedded default) or an S3 bucket. */
export function createMediaStore(config: AppConfig): MediaStore {
  return config.mediaStore.kind === 's3' ? new S3MediaStore(config.mediaStore) : new LocalMediaStore(config.mediaDir);
}
