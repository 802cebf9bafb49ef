// Image identity and public addresses. The basename is the only part of an address the server
// invents, so its pattern doubles as the path-traversal guard of the file route and the store.
import { randomLowerAlnum } from '../../lib/crypto.js';
import { HANDLE_PATTERN } from '../stores/index.js';
import type { ImageFormat } from './image-types.js';
import { IMAGE_FORMAT_INFO } from './image-types.js';

const ID_RANDOM_LENGTH = 24;
const BASENAME_RANDOM_LENGTH = 24;

export const IMAGE_ID_PATTERN = /^img_[a-z0-9]{24}$/;
/** `<24 random lowercase letters/digits>.<jpg|png|gif|webp>`: no dots, slashes or other names. */
export const BASENAME_PATTERN = /^[a-z0-9]{24}\.(?:jpg|png|gif|webp)$/;

/** ~124 bits of randomness each: ids and names are neither guessable nor enumerable. */
export function newImageId(): string {
  return `img_${randomLowerAlnum(ID_RANDOM_LENGTH)}`;
}

/** The extension follows the decoded content, never the uploaded file name. */
export function newBasename(format: ImageFormat): string {
  return `${randomLowerAlnum(BASENAME_RANDOM_LENGTH)}.${IMAGE_FORMAT_INFO[format].extension}`;
}

export function isValidBasename(basename: string): boolean {
  return BASENAME_PATTERN.test(basename);
}

export function isValidHandle(handle: string): boolean {
  return HANDLE_PATTERN.test(handle);
}

export interface ImagePublicRef {
  path: string;
  url: string;
}

/** `path` is the part of `url` after the host (docs/media.md). */
export function imagePublicRef(storeHandle: string, basename: string, publicBaseUrl: string): ImagePublicRef {
  const path = `/media/${storeHandle}/${basename}`;
  return { path, url: `${publicBaseUrl.replace(/\/+$/, '')}${path}` };
}
