// The decode budget of image uploads: its defaults are those of MEDIA_MAX_ANIMATION_PIXELS and
// MEDIA_PROCESSING_TIMEOUT_SECONDS (env-schema.ts), and the media module applies it.
/**
 * The server's own bound on the work one upload may cost, on top of the store's limits (which
 * describe images, not CPU time). See docs/media.md, "Processing cost".
 */
export interface DecodeBudget {
  /**
   * Frames x canvas pixels an animated image may have. Re-encoding an animation (a palette
   * for every frame) costs many times more per pixel than a still image, so the store's
   * total-pixel limit alone let a few kilobytes hold the CPU for seconds.
   */
  maxAnimationPixels: number;
  /** Wall-clock seconds libvips may spend on one image before it is refused. */
  timeoutSeconds: number;
}

export const DEFAULT_DECODE_BUDGET: Readonly<DecodeBudget> = Object.freeze({
  maxAnimationPixels: 20_000_000,
  timeoutSeconds: 10,
});
