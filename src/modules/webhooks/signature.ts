// Signing per the Standard Webhooks specification: the secret is `whsec_` + base64 of random
// bytes; the signature is base64(HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")) sent as
// `v1,<signature>`, several separated by spaces while a rotated-out secret is still live.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 32 bytes: above the specification's 24-byte minimum, the size of the HMAC-SHA256 key block's digest. */
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per live secret, newest first. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((secret) => sign(secret, id, timestampSeconds, body)).join(' ');
}
