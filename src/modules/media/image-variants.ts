// Responsive variants of an image: the same picture at a smaller width, and perhaps in a
// smaller format, made on the first request of `/media/<handle>/<basename>?w=N` and kept beside
// the image in the media store (docs/media.md, "Variants"). This file holds the rules only:
// which widths exist, which format a request gets, and what the stored files are called.
import { BASENAME_PATTERN } from './image-refs.js';
import { IMAGE_FORMAT_INFO, type ImageFormat } from './image-types.js';

/** The widths a variant may be asked for: phones, tablets, laptops and large screens at 1x and 2x. */
export const VARIANT_WIDTHS = [320, 640, 960, 1280, 1920] as const;

/** What a variant may be encoded as: the image's own format, or WebP or AVIF when the client takes it. */
export type VariantFormat = ImageFormat | 'avif';

export const VARIANT_FORMAT_INFO: Readonly<Record<VariantFormat, { contentType: string; extension: string }>> =
  Object.freeze({ ...IMAGE_FORMAT_INFO, avif: { contentType: 'image/avif', extension: 'avif' } });

/**
 * `<basename>.w<width>.<extension>`, e.g. `k3v9….jpg.w640.webp`: the image's own name leads, so a
 * variant is found from it (removal) and it from a variant (housekeeping), and a listing keeps an
 * image and its variants together. The width is the width of the file.
 */
const VARIANT_NAME_PATTERN = new RegExp(
  `^(${BASENAME_PATTERN.source.slice(1, -1)})\\.w([1-9][0-9]{0,4})\\.(jpg|png|gif|webp|avif)$`,
);

export function variantName(basename: string, width: number, format: VariantFormat): string {
  return `${basename}.w${width}.${VARIANT_FORMAT_INFO[format].extension}`;
}

export function isValidVariantName(name: string): boolean {
  return VARIANT_NAME_PATTERN.test(name);
}

/** The image a stored file belongs to: itself for an image, the source image for a variant. */
export function sourceBasenameOf(name: string): string {
  return VARIANT_NAME_PATTERN.exec(name)?.[1] ?? name;
}

/** The `w` query value as an allowed width, or null. Only the exact decimal spelling counts. */
export function parseVariantWidth(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,4}$/.test(value)) return null;
  const width = Number(value);
  return (VARIANT_WIDTHS as readonly number[]).includes(width) ? width : null;
}

/** The width a variant is made at: the asked width, never more than the image's own (never upscaled). */
export function outputWidth(asked: number, imageWidth: number): number {
  return Math.min(asked, imageWidth);
}

/**
 * Every name a variant of this image can have been stored under (its removal removes them all):
 * each allowed width below the image's width and the image's own width, in each format.
 */
export function variantNamesOf(basename: string, imageWidth: number): string[] {
  const widths = new Set<number>(VARIANT_WIDTHS.map((w) => outputWidth(w, imageWidth)));
  const formats: VariantFormat[] = [formatOfBasename(basename), 'webp', 'avif'];
  const names = new Set<string>();
  for (const width of widths) for (const format of formats) names.add(variantName(basename, width, format));
  return [...names];
}

export function formatOfBasename(basename: string): ImageFormat {
  const extension = basename.slice(basename.lastIndexOf('.') + 1);
  const found = (Object.keys(IMAGE_FORMAT_INFO) as ImageFormat[]).find(
    (f) => IMAGE_FORMAT_INFO[f].extension === extension,
  );
  if (!found) throw new Error(`No image format has the extension ${extension}`);
  return found;
}

/** The media types an Accept header names explicitly with a q-value above 0 (ranges such as image/* do not count). */
function acceptedTypes(accept: string | undefined): Set<string> {
  const types = new Set<string>();
  for (const range of (accept ?? '').split(',')) {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    if (q !== undefined && !(Number(q.slice(q.indexOf('=') + 1).trim()) > 0)) continue;
    if (type) types.add(type);
  }
  return types;
}

/**
 * The format a request gets. WebP first: every current browser shows it, it encodes in a small
 * fraction of AVIF's time (a first request waits for the encoding, within the image processing
 * turns) and keeps animations. AVIF only when the client takes AVIF but not WebP, and only for
 * still formats (JPEG, PNG): its encoder here writes one frame. Otherwise the image's own format.
 * Only explicit types count: `*\/*` or `image/*` (which every client sends) keep the own format,
 * so a client that never heard of WebP is never sent it.
 */
export function negotiateFormat(accept: string | undefined, own: ImageFormat): VariantFormat {
  const types = acceptedTypes(accept);
  if (types.has('image/webp')) return 'webp';
  if (types.has('image/avif') && (own === 'jpeg' || own === 'png')) return 'avif';
  return own;
}

/** A name the media store keeps: an image's basename or one of its variants' names. */
export function isStoredFileName(name: string): boolean {
  return BASENAME_PATTERN.test(name) || VARIANT_NAME_PATTERN.test(name);
}
