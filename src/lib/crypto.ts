import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random string from a CSPRNG with no modulo bias (randomInt is uniform). */
export function randomString(length: number, alphabet: string = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function randomLowerAlnum(length: number): string {
  return randomString(length, LOWER_ALNUM);
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256Hex of the parts joined, without building the joined string (a 16 MiB body's copy). */
export function sha256HexOfParts(parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

export function hmacBase64Url(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

/** Constant-time comparison of two strings (false when lengths differ, without early exit on content). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}
