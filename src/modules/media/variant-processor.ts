// Makes one variant of a stored image: scaled to a width (never up) and encoded in the
// negotiated format. The stored image was made by processImage, yet it is read here under the
// same header checks, pixel limits and time budget as an upload: a store's limits may have
// changed since, and a file in the store is only as trusted as the store.
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import {
  assertValidBudget,
  checkHeaderLimits,
  detectAcceptedFormat,
  FAIL_ON,
  JPEG_QUALITY,
  PNG_COMPRESSION_LEVEL,
  readHeader,
  rejectionFromDecodeError,
  WEBP_QUALITY,
} from './image-processor.js';
import type { DecodeBudget, ImageLimits } from './image-types.js';
import type { VariantFormat } from './image-variants.js';

/** Variants are seen on screens, not archived: a lower WebP quality than uploads, and AVIF's quick effort. */
const VARIANT_WEBP_QUALITY = Math.min(WEBP_QUALITY, 80);
const AVIF_QUALITY = 55;
const AVIF_EFFORT = 2;

export async function makeVariant(
  input: Buffer,
  width: number,
  format: VariantFormat,
  limits: ImageLimits,
  budget: DecodeBudget,
): Promise<Buffer> {
  assertValidBudget(budget);
  const own = detectAcceptedFormat(input);
  const header = await readHeader(input, own);
  checkHeaderLimits(header, limits, budget);
  const animated = header.frames > 1;
  const pipeline = sharp(input, {
    limitInputPixels: animated ? limits.maxTotalPixels : limits.maxPixels,
    animated,
    failOn: FAIL_ON,
  })
    // The stored image is already upright (processImage applied its orientation), so no autoOrient.
    .resize({ width, withoutEnlargement: true })
    .timeout({ seconds: budget.timeoutSeconds });
  try {
    return await encodeAs(pipeline, format).toBuffer();
  } catch (error) {
    throw rejectionFromDecodeError(own, error, budget.timeoutSeconds);
  }
}

function encodeAs(pipeline: Sharp, format: VariantFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.keepIccProfile().jpeg({ quality: JPEG_QUALITY, mozjpeg: false });
    case 'png':
      return pipeline.keepIccProfile().png({ compressionLevel: PNG_COMPRESSION_LEVEL });
    case 'webp':
      return pipeline.keepIccProfile().webp({ quality: VARIANT_WEBP_QUALITY });
    case 'avif':
      return pipeline.keepIccProfile().avif({ quality: AVIF_QUALITY, effort: AVIF_EFFORT });
    case 'gif':
      return pipeline.gif({ keepDuplicateFrames: true });
  }
}
