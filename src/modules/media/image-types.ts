// Public types of the image processing core. Kept free of any sharp import so
// that callers (HTTP layer, storage) can depend on them without loading libvips.

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

export interface ImageLimits {
  /** File size limit in bytes. */
  maxBytes: number;
  /** width*height limit, checked from the header before any pixel is decoded. */
  maxPixels: number;
  /** Frame limit for animated images (GIF and animated WebP). */
  maxGifFrames: number;
  /** Sum of pixels over all frames of an animated image. */
  maxTotalPixels: number;
  /** Wider images are scaled down proportionally (never up). */
  maxWidth: number;
}

export const DEFAULT_IMAGE_LIMITS: Readonly<ImageLimits> = Object.freeze({
  maxBytes: 10_485_760,
  maxPixels: 40_000_000,
  maxGifFrames: 200,
  maxTotalPixels: 100_000_000,
  maxWidth: 2048,
});

// The decode budget's defaults are configuration (MEDIA_MAX_ANIMATION_PIXELS,
// MEDIA_PROCESSING_TIMEOUT_SECONDS), so they live with it.
export { DEFAULT_DECODE_BUDGET, type DecodeBudget } from '../../config/decode-budget.js';

export interface ProcessedImage {
  format: ImageFormat;
  contentType: string;
  extension: string;
  /** Width of the output. */
  width: number;
  /** Height of the output; for animated images the height of ONE frame. */
  height: number;
  /** Length of `data`. */
  bytes: number;
  data: Buffer;
}

export type ImageRejectionReason = 'unsupported_media_type' | 'image_too_large' | 'unreadable';

/**
 * Thrown by `processImage` when the upload itself is at fault (client error).
 * Anything else thrown from the core is a server-side bug or a misconfiguration.
 */
export class ImageRejection extends Error {
  override readonly name = 'ImageRejection';

  /**
   * `detail` is safe to show to the client. The underlying decoder error, if any,
   * goes to `cause` (for logs only: it may name library internals).
   */
  constructor(
    readonly reason: ImageRejectionReason,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${reason}: ${detail}`, options);
  }
}

export const IMAGE_FORMAT_INFO: Readonly<Record<ImageFormat, { contentType: string; extension: string }>> =
  Object.freeze({
    jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
    png: { contentType: 'image/png', extension: 'png' },
    gif: { contentType: 'image/gif', extension: 'gif' },
    webp: { contentType: 'image/webp', extension: 'webp' },
  });
