// verifyWebhook on Web Crypto (crypto.subtle), so it runs in Node, browsers and edge runtimes.
// crypto.subtle.verify compares in constant time. The synchronous Node variant is in node.ts.
import {
  parseEvent,
  readDelivery,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhook-signature.js';

const SIGNATURE_BYTES = 32;

/**
 * Checks a delivery's signature and time and resolves with its event. `body` must be the raw
 * body as received (not re-serialised JSON). `secret` may be a list (during a rotation, old and
 * new). Rejects with WebhookVerificationError when anything is wrong.
 */
export async function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const delivery = readDelivery(body, headers, secret, options);
  const data = new TextEncoder().encode(delivery.signed);
  for (const raw of delivery.keys) {
    const key = await crypto.subtle.importKey(
      'raw',
      raw as Uint8Array<ArrayBuffer>,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    for (const signature of delivery.signatures) {
      if (signature.length !== SIGNATURE_BYTES) continue;
      if (await crypto.subtle.verify('HMAC', key, signature as Uint8Array<ArrayBuffer>, data))
        return parseEvent(delivery.text);
    }
  }
  throw new WebhookVerificationError('no signature matches the secret');
}
