// Validates and re-encodes uploaded images: content-based format detection,
// pixel/frame limits checked from the header before decoding, auto-orientation,
// proportional downscaling and removal of all EXIF/XMP/IPTC metadata.
import sharp from 'sharp';
import type { Metadata, OutputInfo, Sharp } from 'sharp';

import { readGifLayout } from './gif-layout.js';
import { sniffImageFormat } from './image-sniff.js';
import {
  DEFAULT_DECODE_BUDGET,
  IMAGE_FORMAT_INFO,
  ImageRejection,
  type DecodeBudget,
  type ImageFormat,
  type ImageLimits,
  type ProcessedImage,
} from './image-types.js';

export { sniffImageFormat } from './image-sniff.js';
export {
  DEFAULT_DECODE_BUDGET,
  DEFAULT_IMAGE_LIMITS,
  type DecodeBudget,
  IMAGE_FORMAT_INFO,
  ImageRejection,
  type ImageFormat,
  type ImageLimits,
  type ImageRejectionReason,
  type ProcessedImage,
} from './image-types.js';

// libvips' operation cache keeps recently used images and their buffers alive
// so that repeated operations on the same input are cheap. Every upload is a
// different image, so the cache would only hold memory between requests.
sharp.cache(false);
// One libvips thread per image (sharp's default is one per core): the number of images processed
// at once (MEDIA_PROCESSING_CONCURRENCY, processing-turns.ts, half the cores by default) is then
// the number of cores image work can take, and the rest stay free for serving. Each image also
// holds one thread of libuv's pool while it runs, which is why that number stays below the pool's
// size: files served under /media are read on the same pool. Peak memory is about that many
// decoded images, each bounded by the limits below.
sharp.concurrency(1);

// sharp's documented recommendation for untrusted input: any decoder warning
// (truncated data, corrupt segments) makes the image unreadable.
export const FAIL_ON = 'warning' as const;

export const JPEG_QUALITY = 85;
export const PNG_COMPRESSION_LEVEL = 6;
export const WEBP_QUALITY = 85;

/** What the header says, before any pixel is decoded. */
export interface ImageHeader {
  width: number;
  /** Height of a single frame (equals the image height for still images). */
  frameHeight: number;
  frames: number;
  /**
   * The size the file declares, checked against the limits: for a GIF the logical screen
   * grown to hold every frame, which the decoder may not report; otherwise width x frameHeight.
   */
  declaredWidth: number;
  declaredHeight: number;
  /** Width once EXIF orientation has been applied, i.e. the width the resize acts on. */
  orientedWidth: number;
}

export async function processImage(
  input: Buffer,
  limits: ImageLimits,
  budget: DecodeBudget = DEFAULT_DECODE_BUDGET,
): Promise<ProcessedImage> {
  assertValidLimits(limits);
  assertValidBudget(budget);
  if (input.length > limits.maxBytes) {
    throw new ImageRejection('image_too_large', `file is ${input.length} bytes, the limit is ${limits.maxBytes}`);
  }
  const format = detectAcceptedFormat(input);
  const header = await readHeader(input, format);
  checkHeaderLimits(header, limits, budget);

  const { data, info } = await encode(input, format, header, limits, budget);
  return {
    format,
    ...IMAGE_FORMAT_INFO[format],
    width: info.width,
    // For animated output sharp reports the whole strip of frames as `height`.
    height: info.pageHeight ?? info.height,
    bytes: data.length,
    data,
  };
}

/** Programming or configuration errors, not client errors: fail loudly. */
function assertValidLimits(limits: ImageLimits): void {
  for (const key of ['maxBytes', 'maxPixels', 'maxGifFrames', 'maxTotalPixels', 'maxWidth'] as const) {
    const value = limits[key];
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`ImageLimits.${key} must be a positive integer, got ${String(value)}`);
    }
  }
}

export function assertValidBudget(budget: DecodeBudget): void {
  for (const key of ['maxAnimationPixels', 'timeoutSeconds'] as const) {
    const value = budget[key];
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`DecodeBudget.${key} must be a positive integer, got ${String(value)}`);
    }
  }
}

export function detectAcceptedFormat(input: Buffer): ImageFormat {
  const sniffed = sniffImageFormat(input);
  if (sniffed === 'svg') {
    // SVG can carry scripts and external references; it is never accepted.
    throw new ImageRejection('unsupported_media_type', 'SVG images are not accepted');
  }
  if (sniffed === null) {
    throw new ImageRejection('unsupported_media_type', 'only JPEG, PNG, GIF and WebP images are accepted');
  }
  return sniffed;
}

export async function readHeader(input: Buffer, format: ImageFormat): Promise<ImageHeader> {
  let metadata: Metadata;
  try {
    // metadata() only parses the header. The pixel limit is disabled here so the
    // declared size can be reported precisely; it is enforced right after, and
    // again by libvips itself when decoding.
    metadata = await sharp(input, { limitInputPixels: false, failOn: FAIL_ON }).metadata();
  } catch (error) {
    throw new ImageRejection('unreadable', `the ${format} header could not be parsed`, { cause: error });
  }
  // The decoder picks its own format from the content; a disagreement with the
  // magic bytes means a malformed or polyglot file.
  if (metadata.format !== format) {
    throw new ImageRejection('unreadable', `content looks like ${format} but decodes as ${String(metadata.format)}`);
  }
  const { width, height } = metadata;
  if (!isPositiveInteger(width) || !isPositiveInteger(height)) {
    throw new ImageRejection('unreadable', 'the header declares no valid dimensions');
  }
  // Read without `animated`, so `height` is already one frame; pageHeight is
  // preferred when present because it is the frame height by definition.
  const frameHeight = isPositiveInteger(metadata.pageHeight) ? metadata.pageHeight : height;
  let frames = isAnimatable(format) && isPositiveInteger(metadata.pages) ? metadata.pages : 1;
  // Multi-frame images are not re-oriented (see buildPipeline).
  const orientedWidth = frames > 1 ? width : (metadata.autoOrient?.width ?? width);
  let declaredWidth = width;
  let declaredHeight = frameHeight;
  if (format === 'gif') {
    // libvips reports a GIF by its frames when the logical screen looks implausible, so the
    // screen the header declares is read here and checked like any other declared size.
    const layout = readGifLayout(input);
    if (layout) {
      declaredWidth = Math.max(declaredWidth, layout.canvasWidth);
      declaredHeight = Math.max(declaredHeight, layout.canvasHeight);
      frames = Math.max(frames, layout.frames);
    }
  }
  return { width, frameHeight, frames, orientedWidth, declaredWidth, declaredHeight };
}

export function checkHeaderLimits(header: ImageHeader, limits: ImageLimits, budget: DecodeBudget): void {
  const framePixels = header.declaredWidth * header.declaredHeight;
  if (framePixels > limits.maxPixels) {
    throw new ImageRejection(
      'image_too_large',
      `image is ${header.declaredWidth}x${header.declaredHeight} pixels, the limit is ${limits.maxPixels} pixels`,
    );
  }
  if (header.frames > limits.maxGifFrames) {
    throw new ImageRejection(
      'image_too_large',
      `animation has ${header.frames} frames, the limit is ${limits.maxGifFrames}`,
    );
  }
  // Every frame is composed on the whole canvas and re-encoded, so this is the work to be done.
  const totalPixels = framePixels * header.frames;
  if (totalPixels > limits.maxTotalPixels) {
    throw new ImageRejection(
      'image_too_large',
      `animation has ${totalPixels} pixels over all frames, the limit is ${limits.maxTotalPixels}`,
    );
  }
  if (header.frames > 1 && totalPixels > budget.maxAnimationPixels) {
    throw new ImageRejection(
      'image_too_large',
      `animation has ${totalPixels} pixels over all frames (${header.frames} frames of ${header.declaredWidth}x${header.declaredHeight}), more than the ${budget.maxAnimationPixels} this server processes per animation`,
    );
  }
}

async function encode(
  input: Buffer,
  format: ImageFormat,
  header: ImageHeader,
  limits: ImageLimits,
  budget: DecodeBudget,
): Promise<{ data: Buffer; info: OutputInfo }> {
  // The time budget catches what no header reveals (costly content within every limit).
  const pipeline = buildPipeline(input, format, header, limits).timeout({ seconds: budget.timeoutSeconds });
  try {
    return await pipeline.toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw rejectionFromDecodeError(format, error, budget.timeoutSeconds);
  }
}

function buildPipeline(input: Buffer, format: ImageFormat, header: ImageHeader, limits: ImageLimits): Sharp {
  const animated = header.frames > 1;
  let pipeline = sharp(input, {
    // All frames are decoded as one vertical strip, so libvips' own pixel check
    // (width x strip height) must use the all-frames budget for animations.
    limitInputPixels: animated ? limits.maxTotalPixels : limits.maxPixels,
    animated,
    failOn: FAIL_ON,
  });
  if (!animated) {
    // Orientation is applied to the pixels here, before the EXIF block that
    // carried it is dropped. sharp cannot rotate animations by 90 degrees, and
    // its 180-degree/vertical flips act on the whole strip and reverse the frame
    // order, so animations keep their stored pixel orientation.
    pipeline = pipeline.autoOrient();
  }
  if (header.orientedWidth > limits.maxWidth) {
    // Resizing by width only keeps the aspect ratio; for animations sharp
    // resizes each frame of the strip (pageHeight is recomputed).
    pipeline = pipeline.resize({ width: limits.maxWidth, withoutEnlargement: true });
  }
  return applyOutputFormat(pipeline, format);
}

/**
 * Re-encodes in the input's format. No keepExif/keepXmp/keepMetadata call is
 * made, so sharp writes no EXIF (GPS included), XMP or IPTC. The ICC profile is
 * kept (pixels stay in their original colour space) except for GIF, which has
 * no colour management: sharp converts GIF frames to sRGB instead.
 */
function applyOutputFormat(pipeline: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.keepIccProfile().jpeg({ quality: JPEG_QUALITY, mozjpeg: false });
    case 'png':
      return pipeline.keepIccProfile().png({ compressionLevel: PNG_COMPRESSION_LEVEL });
    case 'webp':
      return pipeline.keepIccProfile().webp({ quality: WEBP_QUALITY });
    case 'gif':
      // Identical consecutive frames are kept so the frame count (and the
      // per-frame delays) match the upload.
      return pipeline.gif({ keepDuplicateFrames: true });
  }
}

export function rejectionFromDecodeError(format: ImageFormat, error: unknown, timeoutSeconds: number): ImageRejection {
  const message = error instanceof Error ? error.message : String(error);
  // Raised by libvips' own limitInputPixels check (defence in depth: the header
  // check above should already have caught it).
  if (/exceeds pixel limit/i.test(message)) {
    return new ImageRejection('image_too_large', 'image exceeds the pixel limit', { cause: error });
  }
  // libvips' message when the time budget runs out: "timeout: 18% complete".
  if (/^timeout: /i.test(message)) {
    return new ImageRejection('image_too_large', `image took longer than ${timeoutSeconds} s to process`, {
      cause: error,
    });
  }
  return new ImageRejection('unreadable', `the ${format} image data could not be decoded`, { cause: error });
}

function isAnimatable(format: ImageFormat): boolean {
  return format === 'gif' || format === 'webp';
}

function isPositiveInteger(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
