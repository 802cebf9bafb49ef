import type { Static } from '@sinclair/typebox';
import { Cache, type CacheVersions } from '../../cache/index.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { formatNullable, formatWithOffset, nextTaipeiMidnight, taipeiDay, TAIPEI_OFFSET } from '../../lib/time.js';
import type { Caller } from '../keys/index.js';
import { dailyUsage, type QuotaUsage } from '../quotas/index.js';
import { IMAGE_FORMATS, presentFeatures, presentLimits } from '../stores/index.js';
import type { IdentitySchema } from './identity-schemas.js';

type Identity = Static<typeof IdentitySchema>;

/** The identities cache's budget: about two kilobytes an identity. */
export const IDENTITY_CACHE_BYTES = 16 * 1024 * 1024;
const IDENTITY_BYTES = 2048;

export class IdentityService {
  /**
   * Identities per Caller object, under the `usage` version. Cached callers are shared and
   * replaced whenever the key or its store changes (KeyService), so a caller read before such
   * a change never finds an identity made after it, nor the reverse.
   */
  private readonly cache: Cache<Caller, Identity> | null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apiVersion: string,
    cacheBytes = IDENTITY_CACHE_BYTES,
  ) {
    this.cache = cacheBytes > 0 ? new Cache(cacheBytes) : null;
  }

  /** The identity of a caller; cached while the quotas and the caller are unchanged, within its Taipei day. */
  async describe(caller: Caller, versions: CacheVersions): Promise<Identity> {
    const now = this.clock.now().getTime();
    const found = this.cache?.get(caller, versions.usage, now);
    if (found) return found;
    const identity = await this.read(caller, now);
    this.cache?.set(caller, Object.freeze(identity), {
      version: versions.usage,
      now,
      until: nextTaipeiMidnight(now),
      size: IDENTITY_BYTES,
    });
    return identity;
  }

  private async read(caller: Caller, now: number): Promise<Identity> {
    const { store } = caller;
    const rows = await dailyUsage(this.db, store.id, taipeiDay(now));
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
      features: presentFeatures(store.features),
      limits: { ...presentLimits(store.limits), image_formats: [...IMAGE_FORMATS] },
      quotas: { posts_per_day: posts, images_per_day: images },
      rate_limits: {
        read_per_minute: caller.rateLimits.readPerMinute,
        write_per_minute: caller.rateLimits.writePerMinute,
        concurrency: caller.rateLimits.concurrency,
      },
    };
  }
}
