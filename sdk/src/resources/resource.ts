// What every group of methods (client.posts, client.categories, …) is built on: the transport
// and small helpers. A new group is a class extending Resource, given a field in BlogClient.
import type { Answer, Call, RequestOptions, Transport } from '../transport.js';
import type { IfMatch, Post } from '../types.js';

/** Options of a call that creates, with the Idempotency-Key to send. */
export interface CreateOptions extends RequestOptions {
  /**
   * The Idempotency-Key (1 to 255 printable ASCII characters). One is generated when none is
   * given and reused on this call's own retries; give your own to make a create safe to repeat
   * across restarts of your program.
   */
  idempotencyKey?: string;
}

/** Options of a call that may carry an If-Match precondition. */
export interface ConditionalOptions extends RequestOptions {
  /** Refused (412 precondition_failed, nothing written) if the post changed since: an ETag, or a post or a copy of one. */
  ifMatch?: IfMatch;
}

export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected send(call: Call): Promise<Answer> {
    return this.transport.send(call);
  }

  protected async body<T>(call: Call): Promise<T> {
    return (await this.transport.send(call)).body as T;
  }
}

export const id = (value: string | number) => encodeURIComponent(String(value));

/** The options a call passes on to the transport (nothing the call itself consumes). */
export function requestOptions(options: RequestOptions | undefined): RequestOptions | undefined {
  if (!options) return undefined;
  const out: RequestOptions = {};
  if (options.timeoutMs !== undefined) out.timeoutMs = options.timeoutMs;
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.maxRetries !== undefined) out.maxRetries = options.maxRetries;
  return out;
}

export function ifMatchHeader(ifMatch: IfMatch | undefined): Record<string, string> {
  if (ifMatch === undefined) return {};
  const etag = typeof ifMatch === 'string' ? ifMatch : ifMatch?.etag;
  if (!etag)
    throw new TypeError('ifMatch: no ETag; pass the ETag string or a post (or a copy of one) returned by this client');
  return { 'if-match': etag };
}

/** A new Idempotency-Key: a random UUID (getRandomValues where randomUUID is missing, e.g. a page not served over https). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The post in an answer, with the answer's ETag as its `etag` field. */
export function withEtag(answer: Answer): Post {
  return Object.assign(answer.body as Omit<Post, 'etag'>, { etag: answer.headers.get('etag') });
}
