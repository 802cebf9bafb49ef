import type { Static } from '@sinclair/typebox';
import { queryTemplate, type Db, type TableWatch } from '../../db/database.js';
import { WatchedCache } from '../../db/watched-cache.js';
import type { Clock } from '../../lib/clock.js';
import { formatNullable, formatWithOffset, nextTaipeiMidnight, taipeiDay, TAIPEI_OFFSET } from '../../lib/time.js';
import { CALLER_CACHE_SIZE, type Caller } from '../keys/index.js';
import type { QuotaUsage } from '../quotas/index.js';
import { IMAGE_FORMATS } from '../stores/index.js';
import type { IdentitySchema } from './identity-schemas.js';

/** Today's use of both daily quotas in one query (the quota module's readUsage, for two kinds). */
const usageToday = queryTemplate((db, $) =>
  db.selectFrom('daily_usage').select(['kind', 'used']).where('store_id', '=', $(0)).where('day', '=', $(1)).where('kind', 'in', ['posts', 'images']),
);

type Identity = Static<typeof IdentitySchema>;

/** Tables an identity is read from: the key and its store (through the Caller) and the quotas. */
export const IDENTITY_TABLES = ['daily_usage', 'api_keys', 'stores'] as const;

/** Bounded like the verified keys the identities are kept for. */
const KEPT_IDENTITIES = CALLER_CACHE_SIZE;

export class IdentityService {
  /**
   * Identities kept per Caller object. Kept callers are shared and replaced whenever their
   * tables change (CallerCache), so a caller read before a change never keys a fresh entry.
   */
  private readonly kept: WatchedCache<Identity, Caller> | null;

  /** `tables`: a watch of IDENTITY_TABLES, to keep identities between requests (null: never). */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apiVersion: string,
    tables: TableWatch | null = null,
  ) {
    this.kept = tables && new WatchedCache(tables, KEPT_IDENTITIES);
  }

  /** The identity of a caller, kept while the quotas and the caller are unchanged, and within its Taipei day. */
  async describe(caller: Caller): Promise<Identity> {
    const now = this.clock.now().getTime();
    const kept = this.kept;
    const stamp = kept ? kept.begin() : null;
    const found = kept?.find(stamp, caller, now);
    if (found) return found;
    const identity = await this.read(caller, now);
    kept?.keep(stamp, caller, Object.freeze(identity), { now, until: nextTaipeiMidnight(now), size: 1 });
    return identity;
  }

  private async read(caller: Caller, now: number): Promise<Identity> {
    const { store } = caller;
    const rows = await usageToday(this.db, [store.id, taipeiDay(now)]);
    const resetsAt = formatWithOffset(nextTaipeiMidnight(now), TAIPEI_OFFSET);
    const usage = (kind: string, limit: number): QuotaUsage => {
      const used = rows.find((r) => r.kind === kind)?.used ?? 0;
      return { limit, used, remaining: Math.max(0, limit - used), resets_at: resetsAt };
    };
    const posts = usage('posts', store.quotas.postsPerDay);
    const images = usage('images', store.quotas.imagesPerDay);
    return {
      api_version: this.apiVersion,
      key_id: caller.keyId,
      application: caller.application,
      store: { handle: store.handle, name: store.name },
      scopes: caller.scopes,
      key_expires_at: formatNullable(caller.expiresAt, store.utcOffset),
      features: { blog_categories: store.features.blogCategories, media_upload: store.features.mediaUpload, webhooks: store.features.webhooks },
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
