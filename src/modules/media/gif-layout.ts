// What a GIF declares about its size, read from its blocks without decoding any pixel. The
// decoder's own metadata is not enough: a GIF whose logical screen is 60000x60000 with one 1x1
// frame is reported by libvips as 1x1, so the size the header declares would go unchecked.

export interface GifLayout {
  /** The logical screen from the header. */
  screenWidth: number;
  screenHeight: number;
  /** The screen grown to hold every frame rectangle (a frame may reach past the screen). */
  canvasWidth: number;
  canvasHeight: number;
  /** Image descriptors found before the trailer (or before the data ran out). */
  frames: number;
}

const HEADER_BYTES = 6;
const SCREEN_DESCRIPTOR_BYTES = 7;
const IMAGE_DESCRIPTOR_BYTES = 9;

const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** Skips a chain of data sub-blocks (length-prefixed, ended by a zero length); -1 if cut off. */
function skipSubBlocks(data: Buffer, at: number): number {
  let pos = at;
  while (pos < data.length) {
    const size = data[pos];
    pos += 1;
    if (size === 0) return pos;
    pos += size;
  }
  return -1;
}

/**
 * Reads the logical screen and walks the blocks, counting frames and the area they cover.
 * Stops quietly at the trailer or at data that does not follow the format: whether such a file
 * is readable at all is the decoder's decision, this only reports what was declared.
 * Returns null when even the screen descriptor is missing.
 */
export function readGifLayout(data: Buffer): GifLayout | null {
  if (data.length < HEADER_BYTES + SCREEN_DESCRIPTOR_BYTES) return null;
  const screenWidth = data.readUInt16LE(6);
  const screenHeight = data.readUInt16LE(8);
  let canvasWidth = screenWidth;
  let canvasHeight = screenHeight;
  let frames = 0;
  let pos = HEADER_BYTES + SCREEN_DESCRIPTOR_BYTES + colourTableBytes(data[10]);
  while (pos < data.length) {
    const introducer = data[pos];
    if (introducer === 0x3b) break; // trailer
    if (introducer === 0x21) {
      // Extension: introducer, label, then sub-blocks.
      pos = skipSubBlocks(data, pos + 2);
    } else if (introducer === 0x2c) {
      if (pos + 1 + IMAGE_DESCRIPTOR_BYTES > data.length) break;
      const left = data.readUInt16LE(pos + 1);
      const top = data.readUInt16LE(pos + 3);
      const width = data.readUInt16LE(pos + 5);
      const height = data.readUInt16LE(pos + 7);
      frames += 1;
      canvasWidth = Math.max(canvasWidth, left + width);
      canvasHeight = Math.max(canvasHeight, top + height);
      // Local colour table, then the LZW minimum code size byte, then the image data.
      pos = skipSubBlocks(data, pos + 1 + IMAGE_DESCRIPTOR_BYTES + colourTableBytes(data[pos + 9]) + 1);
    } else {
      break;
    }
    if (pos < 0) break;
  }
  return { screenWidth, screenHeight, canvasWidth, canvasHeight, frames };
}
