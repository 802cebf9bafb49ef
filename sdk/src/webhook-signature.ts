// What both webhook verifiers share: reading the headers, checking the time, and the signed
// text. A signature per Standard Webhooks (https://www.standardwebhooks.com) is
// base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<raw body>")), sent as
// "v1,<signature>"; several are sent, space-separated, while a rotated-out secret is still live.
import type { WebhookEvent } from './event-types.js';

export type { WebhookEvent } from './event-types.js';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** The request's headers: a fetch Headers, or a plain object such as Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Accepted distance between webhook-timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (default: the system clock). */
  now?: Date | number;
}

const SECRET_PREFIX = 'whsec_';

function header(headers: WebhookHeaders, name: string): string {
  const record = headers as Record<string, string | string[] | undefined>;
  const value =
    typeof (headers as Headers).get === 'function'
      ? (headers as Headers).get(name)
      : (record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1]);
  const single = Array.isArray(value) ? value[0] : value;
  if (typeof single !== 'string' || single === '') throw new WebhookVerificationError(`missing ${name} header`);
  return single;
}

export interface SignedDelivery {
  /** The text the signatures sign. */
  signed: string;
  /** The body as text. */
  text: string;
  /** The v1 signatures, base64 decoded. */
  signatures: Uint8Array[];
  /** Each secret's key bytes. */
  keys: Uint8Array[];
}

export function fromBase64(value: string): Uint8Array {
  const binary = atob(value);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Checks the headers and the time, and returns what to check the signatures against. */
export function readDelivery(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyWebhookOptions,
): SignedDelivery {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const given = header(headers, 'webhook-signature').split(' ');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const nowSeconds = Math.floor(Number(options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is too far from now');
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signatures: Uint8Array[] = [];
  for (const candidate of given) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    try {
      signatures.push(fromBase64(value));
    } catch {
      // Not base64: it cannot match.
    }
  }
  const keys = (Array.isArray(secret) ? secret : [secret]).map((s) => {
    try {
      return fromBase64(s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s);
    } catch {
      throw new WebhookVerificationError('the secret is not whsec_ followed by base64');
    }
  });
  return { signed: `${id}.${timestamp}.${text}`, text, signatures, keys };
}

export function parseEvent(text: string): WebhookEvent {
  return JSON.parse(text) as WebhookEvent;
}
