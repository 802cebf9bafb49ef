// Verifying a delivery per Standard Webhooks (https://www.standardwebhooks.com): the signature
// is base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<raw body>")), sent as
// "v1,<signature>"; several are sent, space-separated, while a rotated-out secret is still live.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './generated/openapi.js';

type EventBody<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];
/** Every event the service sends, discriminated by `type`. */
export type WebhookEvent = { [T in keyof webhooks]: EventBody<T> }[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Accepted distance between webhook-timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (default: the system clock). */
  now?: Date | number;
}

const SECRET_PREFIX = 'whsec_';

function header(headers: WebhookHeaders, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]);
  const single = Array.isArray(value) ? value[0] : value;
  if (typeof single !== 'string' || single === '') throw new WebhookVerificationError(`missing ${name} header`);
  return single;
}

/**
 * Checks a delivery's signature and time and returns its event. `body` must be the raw body as
 * received (not re-serialised JSON). `secret` may be a list (during a rotation, old and new).
 * Throws WebhookVerificationError when anything is wrong.
 */
export function verifyWebhook(body: string | Uint8Array, headers: WebhookHeaders, secret: string | string[], options: VerifyWebhookOptions = {}): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature').split(' ');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const nowSeconds = Math.floor(Number(options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp is too far from now');

  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = `${id}.${timestamp}.${text}`;
  const secrets = Array.isArray(secret) ? secret : [secret];
  for (const s of secrets) {
    const key = Buffer.from(s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s, 'base64');
    const expected = createHmac('sha256', key).update(signed).digest();
    for (const candidate of signatures) {
      const [version, value] = candidate.split(',', 2);
      if (version !== 'v1' || !value) continue;
      const given = Buffer.from(value, 'base64');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return JSON.parse(text) as WebhookEvent;
    }
  }
  throw new WebhookVerificationError('no signature matches the secret');
}
