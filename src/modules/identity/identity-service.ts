import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { formatNullable } from '../../lib/time.js';
import type { Caller } from '../keys/index.js';
import { readUsage } from '../quotas/index.js';
import { IMAGE_FORMATS } from '../stores/index.js';
import type { IdentitySchema } from './identity-schemas.js';

export class IdentityService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apiVersion: string,
  ) {}

  async describe(caller: Caller): Promise<Static<typeof IdentitySchema>> {
    const now = this.clock.now().getTime();
    const { store } = caller;
    const [posts, images] = await Promise.all([
      readUsage(this.db, store.id, 'posts', store.quotas.postsPerDay, now),
      readUsage(this.db, store.id, 'images', store.quotas.imagesPerDay, now),
    ]);
    return {
      api_version: this.apiVersion,
      key_id: caller.keyId,
      application: caller.application,
      store: { handle: store.handle, name: store.name },
      scopes: caller.scopes,
      key_expires_at: formatNullable(caller.expiresAt, store.utcOffset),
      features: { blog_categories: store.features.blogCategories, media_upload: store.features.mediaUpload },
      limits: {
        title_allows_emoji: store.limits.titleAllowsEmoji,
        title_max_length: store.limits.titleMaxLength,
        body_max_bytes: store.limits.bodyMaxBytes,
        image_formats: [...IMAGE_FORMATS],
        image_max_bytes: store.limits.imageMaxBytes,
        image_max_pixels: store.limits.imageMaxPixels,
        image_max_gif_frames: store.limits.imageMaxGifFrames,
        image_max_total_pixels: store.limits.imageMaxTotalPixels,
        image_max_width: store.limits.imageMaxWidth,
        category_max_depth: store.limits.categoryMaxDepth,
      },
      quotas: { posts_per_day: posts, images_per_day: images },
      rate_limits: {
        read_per_minute: caller.rateLimits.readPerMinute,
        write_per_minute: caller.rateLimits.writePerMinute,
        concurrency: caller.rateLimits.concurrency,
      },
    };
  }
}
