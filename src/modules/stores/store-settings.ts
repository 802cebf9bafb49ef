import type { Selectable } from 'kysely';
import type { StoresTable } from '../../db/schema.js';

/** A store as the domain sees it (camelCase; the row mapping lives here only). */
export interface Store {
  id: number;
  handle: string;
  name: string;
  features: { blogCategories: boolean; mediaUpload: boolean; webhooks: boolean };
  certified: boolean;
  writesPaused: boolean;
  limits: StoreLimits;
  quotas: { postsPerDay: number; imagesPerDay: number };
  storefrontBaseUrl: string | null;
  utcOffset: string;
  /** Web origins whose pages may call the Content API from a browser (CORS); empty: none. */
  allowedOrigins: string[];
}

export interface StoreLimits {
  titleAllowsEmoji: boolean;
  titleMaxLength: number;
  bodyMaxBytes: number;
  imageMaxBytes: number;
  imageMaxPixels: number;
  imageMaxWidth: number;
  imageMaxGifFrames: number;
  imageMaxTotalPixels: number;
  categoryMaxDepth: number;
}

/** Defaults of every store (docs/api-behaviour.md); the operator changes them per store. */
export const STORE_DEFAULTS = {
  title_max_length: 200,
  body_max_bytes: 1_048_576,
  posts_per_day: 200,
  images_per_day: 500,
  image_max_bytes: 10_485_760,
  image_max_pixels: 40_000_000,
  image_max_width: 2048,
  image_max_gif_frames: 200,
  image_max_total_pixels: 100_000_000,
  category_max_depth: 3,
  utc_offset: '+08:00',
} as const;

export const IMAGE_FORMATS = ['jpeg', 'png', 'gif', 'webp'] as const;

export function storeFromRow(row: Selectable<StoresTable>): Store {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    features: {
      blogCategories: row.categories_enabled === 1,
      mediaUpload: row.media_enabled === 1,
      webhooks: row.webhooks_enabled === 1,
    },
    certified: row.certified === 1,
    writesPaused: row.writes_paused === 1,
    limits: {
      titleAllowsEmoji: row.emoji_allowed === 1,
      titleMaxLength: row.title_max_length,
      bodyMaxBytes: row.body_max_bytes,
      imageMaxBytes: row.image_max_bytes,
      imageMaxPixels: row.image_max_pixels,
      imageMaxWidth: row.image_max_width,
      imageMaxGifFrames: row.image_max_gif_frames,
      imageMaxTotalPixels: row.image_max_total_pixels,
      categoryMaxDepth: row.category_max_depth,
    },
    quotas: { postsPerDay: row.posts_per_day, imagesPerDay: row.images_per_day },
    storefrontBaseUrl: row.storefront_base_url,
    utcOffset: row.utc_offset,
    allowedOrigins: row.allowed_origins ? row.allowed_origins.split(',') : [],
  };
}

/** A store's feature switches as the API and the CLI show them. */
export function presentFeatures(features: Store['features']) {
  return { blog_categories: features.blogCategories, media_upload: features.mediaUpload, webhooks: features.webhooks };
}

/** A store's limits as the API (`/v1/me`) and the CLI show them. */
export function presentLimits(limits: StoreLimits) {
  return {
    title_allows_emoji: limits.titleAllowsEmoji,
    title_max_length: limits.titleMaxLength,
    body_max_bytes: limits.bodyMaxBytes,
    image_max_bytes: limits.imageMaxBytes,
    image_max_pixels: limits.imageMaxPixels,
    image_max_width: limits.imageMaxWidth,
    image_max_gif_frames: limits.imageMaxGifFrames,
    image_max_total_pixels: limits.imageMaxTotalPixels,
    category_max_depth: limits.categoryMaxDepth,
  };
}

/** Front-end base of a store: its own setting, else `<PUBLIC_BASE_URL>/s/<handle>`. */
export function storefrontBase(store: Store, publicBaseUrl: string): string {
  return (store.storefrontBaseUrl ?? `${publicBaseUrl}/s/${store.handle}`).replace(/\/+$/, '');
}
