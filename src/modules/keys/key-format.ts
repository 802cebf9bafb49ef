// Key shape (docs/api-behaviour.md, "Keys"): `svc_live_` + key_id (8 of [a-z0-9]) + `_` + secret
// (32 letters or digits). Pure functions, table-tested.
import { randomLowerAlnum, randomString } from '../../lib/crypto.js';

export const KEY_PREFIX = 'svc_live_';
const KEY_PATTERN = /^svc_live_([a-z0-9]{8})_([A-Za-z0-9]{32})$/;
export const KEY_ID_PATTERN = /^[a-z0-9]{8}$/;

export interface ParsedKey {
  keyId: string;
  secret: string;
}

/**
 * Whether text could carry a key, or the secret part of one: the prefix in any letter case, or
 * a key id and a secret joined the way a key joins them. Used where caller-chosen text would
 * otherwise be echoed, logged or stored (a request id), so a pasted key goes nowhere.
 */
export function looksLikeKey(text: string): boolean {
  return KEY_PREFIX_ANY_CASE.test(text) || KEY_BODY_IN_TEXT.test(text);
}
const KEY_PREFIX_ANY_CASE = /svc_live/i;
const KEY_BODY_IN_TEXT = /[a-z0-9]{8}_[A-Za-z0-9]{32}/;

export function parseApiKey(raw: string): ParsedKey | null {
  const m = KEY_PATTERN.exec(raw);
  return m ? { keyId: m[1], secret: m[2] } : null;
}

export function generateKeyParts(): { keyId: string; secret: string; key: string } {
  const keyId = randomLowerAlnum(8);
  const secret = randomString(32);
  return { keyId, secret, key: `${KEY_PREFIX}${keyId}_${secret}` };
}

/**
 * Reads `Authorization: Bearer <key>`: `Bearer` in any case, exactly one ASCII space, then the
 * key with nothing around it. Anything else is not a credential (→ 401).
 */
export function parseBearer(header: string | undefined): string | null {
  if (header === undefined) return null;
  const m = /^Bearer ([^\s]+)$/i.exec(header);
  return m ? m[1] : null;
}
