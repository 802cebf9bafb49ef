import type { ImageFormat } from './image-types.js';

// How much of the head is inspected for SVG markup. Raster formats only need
// the first 12 bytes; a caller may pass the whole file, so bound the text scan.
const SVG_SCAN_BYTES = 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function startsWithAscii(head: Buffer, text: string, offset = 0): boolean {
  if (head.length < offset + text.length) return false;
  return head.toString('latin1', offset, offset + text.length) === text;
}

function isJpeg(head: Buffer): boolean {
  // SOI marker followed by the start of the next marker.
  return head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
}

function isPng(head: Buffer): boolean {
  return head.length >= PNG_SIGNATURE.length && head.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);
}

function isGif(head: Buffer): boolean {
  return startsWithAscii(head, 'GIF87a') || startsWithAscii(head, 'GIF89a');
}

function isWebp(head: Buffer): boolean {
  // RIFF container whose form type is WEBP (bytes 4..7 are the chunk size).
  return startsWithAscii(head, 'RIFF') && startsWithAscii(head, 'WEBP', 8);
}

/** Decodes the start of a possible text file, honouring UTF-16 byte order marks. */
function headAsText(head: Buffer): string {
  const slice = head.subarray(0, SVG_SCAN_BYTES);
  if (slice[0] === 0xff && slice[1] === 0xfe) return slice.subarray(2).toString('utf16le');
  if (slice[0] === 0xfe && slice[1] === 0xff) {
    // Node has no utf16be decoder: swap byte pairs into little-endian order.
    const even = slice.subarray(2, 2 + ((slice.length - 2) & ~1));
    return Buffer.from(even).swap16().toString('utf16le');
  }
  return slice.toString('utf8').replace(/^\uFEFF/, '');
}

function isSvg(head: Buffer): boolean {
  const text = headAsText(head).trimStart().toLowerCase();
  if (!text.startsWith('<')) return false;
  // An XML prolog alone is enough to refuse: no accepted format is XML, and
  // refusing as SVG gives the client the more useful explanation.
  if (text.startsWith('<?xml') || text.startsWith('<svg')) return true;
  // Comments or a doctype may precede the root element.
  return /<svg[\s>/]/.test(text) || text.startsWith('<!doctype svg');
}

/**
 * Identifies an image by its leading bytes (never by a file name or a
 * client-declared type). Returns 'svg' for SVG/XML markup so the caller can
 * refuse it explicitly, and null for anything else.
 */
export function sniffImageFormat(head: Buffer): ImageFormat | 'svg' | null {
  if (isJpeg(head)) return 'jpeg';
  if (isPng(head)) return 'png';
  if (isGif(head)) return 'gif';
  if (isWebp(head)) return 'webp';
  if (isSvg(head)) return 'svg';
  return null;
}
