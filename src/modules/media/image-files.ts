// The files of one image: the image itself and the variants made of it.
import { variantNamesOf } from './image-variants.js';
import type { MediaStore } from './media-store.js';

/**
 * Removes every variant the image may have, then the image. Variants go first, so a failure
 * leaves the image file (still served, the deletion is retried or rolled back) and never an image
 * gone with variants left behind. A name that was never made counts as removed. The image's width
 * bounds the names (variant widths never exceed it): at most 15 removals.
 */
export async function removeImageFiles(
  files: MediaStore,
  handle: string,
  basename: string,
  width: number,
): Promise<void> {
  await Promise.all(variantNamesOf(basename, width).map((name) => files.remove(handle, name)));
  await files.remove(handle, basename);
}
