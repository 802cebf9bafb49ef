// verifyWebhook on Web Crypto (crypto.subtle), so it runs in Node, browsers and edge runtimes.
// crypto.subtle.verify compares in constant time. The synchronous Node variant is in node.ts.
// Without crypto.subtle (a browser page on a non-secure origin) it says so plainly.
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
 * new). Rejects with WebhookVerificationError when anything is wrong, and with a plain Error naming
 * Web Crypto when the runtime has no `crypto.subtle`.
 */
export async function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const subtle = (globalThis.crypto as Crypto | undefined)?.subtle;
  if (!subtle)
    throw new Error(
      'verifyWebhook needs Web Crypto (crypto.subtle), which this runtime does not offer: browsers give it only to ' +
        'secure origins (https, or http://localhost). In Node, verifyWebhookSync from store-blog-sdk/node needs none.',
    );
  const delivery = readDelivery(body, headers, secret, options);
  const data = new TextEncoder().encode(delivery.signed);
  for (const raw of delivery.keys) {
    const key = await subtle.importKey(
      'raw',
      raw as Uint8Array<ArrayBuffer>,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    for (const signature of delivery.signatures) {
      if (signature.length !== SIGNATURE_BYTES) continue;
      if (await subtle.verify('HMAC', key, signature as Uint8Array<ArrayBuffer>, data))
        return parseEvent(delivery.text);
    }
  }
  throw new WebhookVerificationError('no signature matches the secret');
}
