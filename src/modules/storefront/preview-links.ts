// Draft preview links: an address that shows a post (draft, scheduled or published) as the
// store front renders it, to whoever holds the link, until it expires. The link is signed, not
// stored: `<post id>.<expiry, epoch seconds>.<HMAC of store, post and expiry>` under a
// per-deployment secret kept in the database (every instance accepts every other's links).
// Nothing has to be cleaned up, and a deleted post answers 404 because it is no longer there.
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { hmacBase64Url, safeEqual } from '../../lib/crypto.js';
import { formatWithOffset } from '../../lib/time.js';
import type { Store } from '../stores/index.js';

export const PREVIEW_MIN_SECONDS = 60;
export const PREVIEW_MAX_SECONDS = 604_800;
export const PREVIEW_DEFAULT_SECONDS = 86_400;

/** Post id, expiry in epoch seconds, a SHA-256 HMAC in base64url (43 characters). */
const TOKEN = /^([1-9][0-9]{0,14})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

export interface IssuedPreviewLink {
  url: string;
  expires_at: string;
}

export class PreviewLinks {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
  ) {}

  /** A link to this store's post `postId` (the caller has checked that the post exists). */
  issue(store: Store, postId: number, expiresInSeconds = PREVIEW_DEFAULT_SECONDS): IssuedPreviewLink {
    if (
      !Number.isInteger(expiresInSeconds) ||
      expiresInSeconds < PREVIEW_MIN_SECONDS ||
      expiresInSeconds > PREVIEW_MAX_SECONDS
    ) {
      throw new ApiError('validation_failed', [
        detail('expires_in_seconds', `must be an integer from ${PREVIEW_MIN_SECONDS} to ${PREVIEW_MAX_SECONDS}`),
      ]);
    }
    const expiresAt = Math.floor(this.clock.now().getTime() / 1000) + expiresInSeconds;
    const token = `${postId}.${expiresAt}.${this.sign(store.id, postId, expiresAt)}`;
    return {
      url: `${this.publicBaseUrl}/s/${store.handle}/blog/preview/${token}`,
      expires_at: formatWithOffset(expiresAt * 1000, store.utcOffset),
    };
  }

  /** The post a token opens for this store, or null: malformed, forged, another store's, or expired. */
  postIdOf(storeId: number, token: string): number | null {
    const m = TOKEN.exec(token);
    if (!m) return null;
    const postId = Number(m[1]);
    const expiresAt = Number(m[2]);
    if (!safeEqual(m[3], this.sign(storeId, postId, expiresAt))) return null;
    if (expiresAt * 1000 <= this.clock.now().getTime()) return null;
    return postId;
  }

  private sign(storeId: number, postId: number, expiresAt: number): string {
    return hmacBase64Url(this.secret, `preview|${storeId}|${postId}|${expiresAt}`);
  }
}
