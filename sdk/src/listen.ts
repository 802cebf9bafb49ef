/// <reference types="node" />
// `store-blog listen`: follows the store's events feed and forwards each event to a local URL,
// signed per Standard Webhooks with a secret of its own, so a developer's receiver (and its
// verification code) runs unchanged on a laptop without a public address or a tunnel. Each
// event is forwarded until the receiver answers 2xx, in feed order, and the cursor is saved
// after each one, so a restart resumes exactly where the last run stopped.
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { BlogClient } from './client.js';
import type { FeedEvent } from './types.js';

export interface ListenOptions {
  baseUrl: string;
  apiKey: string;
  forwardTo: string;
  /** Types or `post.*`-style prefixes; default: every type. */
  types?: string[];
  /** Where the secret and the cursor are kept between runs. */
  stateFile: string;
  /** A `whsec_…` secret to sign with; default: the one saved in the state file, or a new one. */
  secret?: string;
  /** On a first run, forward every event still in the feed instead of only new ones. */
  fromStart?: boolean;
  pollIntervalMs?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

interface State {
  secret?: string;
  /** Per service and store: the cursor after the last event forwarded. */
  cursors?: Record<string, string>;
}

const SECRET_PREFIX = 'whsec_';

function readState(file: string): State {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as State;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${file} is not a state file of store-blog listen: ${(err as Error).message}`, { cause: err });
  }
}

function writeState(file: string, state: State): void {
  // Written whole and renamed into place, so a crash never leaves half a file.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** The body, headers and signature of one forwarded event, as the service's own deliveries carry them. */
export function signedRequest(
  event: FeedEvent,
  secret: string,
  nowSeconds: number,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${event.id}.${nowSeconds}.${body}`).digest('base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'store-blog-listen/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(nowSeconds),
      'webhook-signature': `v1,${signature}`,
      'x-store-handle': event.handle,
      'x-event-sequence': String(event.sequence),
    },
  };
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Runs until `signal` aborts; resolves with the cursor to resume from. */
export async function listen(options: ListenOptions): Promise<string | undefined> {
  const log = options.log ?? ((line: string) => console.log(line));
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const client = new BlogClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const me = await client.me();
  const state = readState(options.stateFile);
  const secret = options.secret ?? state.secret ?? `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
  const place = `${options.baseUrl.replace(/\/+$/, '')} ${me.store.handle}`;
  const save = (cursor: string | undefined) =>
    writeState(options.stateFile, {
      ...state,
      secret,
      cursors: { ...state.cursors, ...(cursor === undefined ? {} : { [place]: cursor }) },
    });

  let cursor = state.cursors?.[place];
  if (cursor === undefined && !options.fromStart) {
    // A first run forwards what happens from now on: walk to the end of the feed.
    for (;;) {
      const page = await client.events.listPage({ ...(cursor === undefined ? {} : { after: cursor }), limit: 100 });
      cursor = page.meta.next_cursor;
      if (!page.meta.has_more) break;
    }
  }
  save(cursor);
  log(`Store ${me.store.handle}: forwarding ${options.types?.join(', ') ?? 'every event'} to ${options.forwardTo}`);
  log(`Signing secret: ${secret}`);
  log(cursor === undefined ? 'Ready: starting from the oldest event kept' : `Ready: resuming after sequence ${cursor}`);

  for await (const event of client.events.follow({
    ...(cursor === undefined ? {} : { after: cursor }),
    ...(options.types === undefined ? {} : { types: options.types }),
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onCursor: (next) => {
      cursor = next;
      save(cursor);
    },
  })) {
    // Until the receiver takes it: the next event waits, so they arrive in feed order.
    for (let attempt = 0; !options.signal?.aborted; attempt++) {
      const { body, headers } = signedRequest(event, secret, Math.floor(Date.now() / 1000));
      let outcome: string;
      try {
        const res = await fetchImpl(options.forwardTo, {
          method: 'POST',
          headers,
          body,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        await res.arrayBuffer().catch(() => undefined);
        outcome = String(res.status);
        if (res.ok) {
          log(`${event.sequence} ${event.type} ${event.id} → ${outcome}`);
          cursor = String(event.sequence);
          save(cursor);
          break;
        }
      } catch (err) {
        if (options.signal?.aborted) break;
        outcome = (err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      }
      const delay = Math.min(30_000, 1000 * 2 ** attempt);
      log(`${event.sequence} ${event.type} ${event.id} → ${outcome}; trying again in ${delay / 1000} s`);
      await wait(delay, options.signal);
    }
    if (options.signal?.aborted) break;
  }
  log(cursor === undefined ? 'Stopped' : `Stopped: the next run resumes after sequence ${cursor}`);
  return cursor;
}
