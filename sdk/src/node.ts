/// <reference types="node" />
// store-blog-sdk/node: what needs Node's own modules. verifyWebhookSync checks a delivery like
// verifyWebhook, synchronously, with node:crypto; listen forwards the events feed to a local URL
// (the `store-blog listen` command, cli.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  parseEvent,
  readDelivery,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhook-signature.js';

export {
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhook-signature.js';

/** verifyWebhook, synchronous (Node only): returns the event or throws WebhookVerificationError. */
export function verifyWebhookSync(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const delivery = readDelivery(body, headers, secret, options);
  for (const key of delivery.keys) {
    const expected = createHmac('sha256', key).update(delivery.signed).digest();
    for (const signature of delivery.signatures) {
      if (signature.length === expected.length && timingSafeEqual(signature, expected))
        return parseEvent(delivery.text);
    }
  }
  throw new WebhookVerificationError('no signature matches the secret');
}

export { listen, signedRequest, type ListenOptions } from './listen.js';
