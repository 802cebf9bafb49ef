// One delivery attempt over HTTP: a POST to the checked address (the socket connects there
// whatever DNS says now; TLS still verifies the certificate for the URL's host name), no
// redirects followed (a 3xx is a failed attempt), at most RESPONSE_READ_LIMIT bytes of the
// answer read, and the whole exchange cut off after the timeout.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './target-check.js';
import type { Timers } from '../../lib/timers.js';
import { EXCERPT_BYTES, excerptOf } from './response-excerpt.js';

export const SEND_TIMEOUT_MS = 10_000;
export const RESPONSE_READ_LIMIT = 64 * 1024;

export interface SendOutcome {
  /** The response status, or null when none arrived (refused, timed out, reset). */
  status: number | null;
  /** Why no status arrived, for the log (never contains a secret). */
  error?: string;
  /** The first 1 KB of the answer's body (attempt-log.ts). */
  excerpt?: string;
  /** No complete answer within the timeout (the circuit breaker counts these). */
  timedOut?: boolean;
}

export type Sender = (target: CheckedTarget, headers: Record<string, string>, body: string) => Promise<SendOutcome>;

export function httpSender(timers: Timers, timeoutMs = SEND_TIMEOUT_MS): Sender {
  return (target, headers, body) =>
    new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        timers.clearTimeout(timer);
        req.destroy();
        resolve(outcome);
      };
      // The checked address, whatever the resolver would answer now.
      const pinned: LookupFunction = (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all)
          (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
            { address: target.address, family: target.family },
          ]);
        else callback(null, target.address, target.family);
      };
      const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(target.url, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        agent: false,
      });
      const timer = timers.setTimeout(
        () => finish({ status: null, error: `no complete answer within ${timeoutMs} ms`, timedOut: true }),
        timeoutMs,
      );
      req.on('error', (err) => finish({ status: null, error: err.message }));
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? null;
        let read = 0;
        const head: Buffer[] = [];
        const answered = () => ({ status, excerpt: excerptOf(Buffer.concat(head)) });
        res.on('data', (chunk: Buffer) => {
          if (read < EXCERPT_BYTES) head.push(chunk.subarray(0, EXCERPT_BYTES - read));
          read += chunk.length;
          if (read >= RESPONSE_READ_LIMIT) finish(answered());
        });
        res.on('end', () => finish(answered()));
        res.on('error', () => finish(answered()));
      });
      req.end(body);
    });
}
