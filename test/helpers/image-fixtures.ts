// Test images generated on the fly (no binary fixtures in the repository).
import { deflateSync } from 'node:zlib';

import sharp from 'sharp';
import type { Sharp } from 'sharp';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export const RED: Rgb = { r: 220, g: 20, b: 20 };
export const GREEN: Rgb = { r: 20, g: 200, b: 20 };
export const BLUE: Rgb = { r: 20, g: 20, b: 220 };
export const YELLOW: Rgb = { r: 230, g: 230, b: 20 };

export function solidImage(width: number, height: number, colour: Rgb = RED): Sharp {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

/** Left half `left`, right half `right`: lets a test see which way pixels were turned. */
export function twoToneImage(width: number, height: number, left: Rgb = RED, right: Rgb = BLUE): Sharp {
  const half = Math.floor(width / 2);
  return solidImage(width, height, left).composite([
    { input: { create: { width: width - half, height, channels: 3, background: right } }, left: half, top: 0 },
  ]);
}

/** An animated GIF or WebP with one solid frame per colour. */
export async function animatedImage(
  format: 'gif' | 'webp',
  width: number,
  height: number,
  colours: Rgb[],
  options: { loop?: number; orientation?: number } = {},
): Promise<Buffer> {
  const frames = await Promise.all(colours.map((colour) => solidImage(width, height, colour).png().toBuffer()));
  const delay = colours.map(() => 100);
  let joined = sharp(frames, { join: { animated: true } });
  const loop = options.loop ?? 0;
  // Identical frames are kept so tests control the exact frame count.
  joined =
    format === 'gif'
      ? joined.gif({ delay, loop, keepDuplicateFrames: true })
      : joined.webp({ delay, loop, lossless: true });
  if (options.orientation !== undefined) joined = joined.withMetadata({ orientation: options.orientation });
  return joined.toBuffer();
}

/** Mean colour of one frame (or of the whole image) of an encoded image. */
export async function frameColour(image: Buffer, page = 0): Promise<Rgb> {
  const { channels } = await sharp(image, { page }).stats();
  const [r, g, b] = channels;
  return { r: Math.round(r.mean), g: Math.round(g.mean), b: Math.round(b.mean) };
}

/** Mean colour of a region of a still image. */
export async function regionColour(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<Rgb> {
  const cropped = await sharp(image).extract(region).png().toBuffer();
  return frameColour(cropped);
}

/** True when every channel is within `tolerance` (lossy codecs shift colours slightly). */
export function closeTo(actual: Rgb, expected: Rgb, tolerance = 24): boolean {
  return (
    Math.abs(actual.r - expected.r) <= tolerance &&
    Math.abs(actual.g - expected.g) <= tolerance &&
    Math.abs(actual.b - expected.b) <= tolerance
  );
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid-looking PNG of a few dozen bytes whose IHDR declares width x height
 * (a "decompression bomb" header): decoding it would need width*height*3 bytes.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A tiny GIF whose logical screen and single frame declare width x height (max 65535). */
export function gifDeclaring(width: number, height: number): Buffer {
  const le16 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...le16(width),
    ...le16(height),
    0x80,
    0,
    0, // logical screen, 2-entry global colour table
    0,
    0,
    0,
    255,
    255,
    255,
    0x2c,
    ...le16(0),
    ...le16(0),
    ...le16(width),
    ...le16(height),
    0, // image descriptor
    2,
    2,
    0x4c,
    0x01,
    0, // LZW minimum code size, one data sub-block, terminator
    0x3b, // trailer
  ]);
}

/**
 * A GIF of a few kilobytes that costs a lot to process: a canvas of width x height with
 * `frames` frames, each a single 1x1 pixel (so almost no image data), each of which the
 * decoder composes onto the whole canvas and the encoder re-encodes.
 */
export function gifBomb(width: number, height: number, frames: number): Buffer {
  const le16 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff];
  const bytes: number[] = [
    ...Buffer.from('GIF89a', 'latin1'),
    ...le16(width),
    ...le16(height),
    0x80,
    0,
    0, // logical screen, 2-entry global colour table
    0,
    0,
    0,
    255,
    255,
    255,
  ];
  for (let i = 0; i < frames; i++) {
    bytes.push(0x21, 0xf9, 4, 0x04, 10, 0, 0, 0); // graphic control: keep the frame, 0.1 s delay
    bytes.push(0x2c, ...le16(i % width), ...le16(0), ...le16(1), ...le16(1), 0); // a 1x1 frame
    bytes.push(2, 2, 0x4c, 0x01, 0);
  }
  bytes.push(0x3b);
  return Buffer.from(bytes);
}

/** A GIF whose logical screen declares width x height but whose only frame is `frame` (default 1x1 at 0,0). */
export function gifScreenDeclaring(
  width: number,
  height: number,
  frame = { left: 0, top: 0, width: 1, height: 1 },
): Buffer {
  const le16 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...le16(width),
    ...le16(height),
    0x80,
    0,
    0,
    0,
    0,
    0,
    255,
    255,
    255,
    0x2c,
    ...le16(frame.left),
    ...le16(frame.top),
    ...le16(frame.width),
    ...le16(frame.height),
    0,
    2,
    2,
    0x4c,
    0x01,
    0,
    0x3b,
  ]);
}
