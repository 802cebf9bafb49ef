/// <reference types="node" />
// `store-blog listen`: follows the store's events feed and forwards each event to a local URL,
// signed per Standard Webhooks with a secret of its own, so a developer's receiver (and its
// verification code) runs unchanged on a laptop without a public address or a tunnel. Each
// event is forwarded until the receiver answers 2xx, in feed order. The cursor is saved (a temp
// file renamed into place) as soon as the receiver's 2xx arrives, before the event is reported
// and before the next one is sent, so a restart — after Ctrl-C or kill -9 alike — resumes after
// the last event acknowledged. While the API cannot be reached, it waits and tries again
// (keep-trying.ts) instead of ending.
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { BlogClient } from './client.js';
import type { EventTypeFilter, FeedEvent } from './event-types.js';
import type { EventQuery } from './types.js';
import { keepTrying, type FollowRetryEvent, type FollowRetryOptions } from './keep-trying.js';

export interface ListenOptions {
  baseUrl: string;
  apiKey: string;
  forwardTo: string;
  /** Event types or `<resource>.*` prefixes; default: every type. */
  types?: readonly EventTypeFilter[];
  /** Where the secret and the cursor are kept between runs. */
  stateFile: string;
  /** A `whsec_…` secret to sign with; default: the one saved in the state file, or a new one. */
  secret?: string;
  /** On a first run, forward every event still in the feed instead of only new ones. */
  fromStart?: boolean;
  pollIntervalMs?: number;
  /** The back-off while the API cannot be reached (as events.follow's `retry`). */
  retry?: FollowRetryOptions;
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
/** As the service's own deliveries: a receiver has 10 s to answer. */
const FORWARD_TIMEOUT_MS = 10_000;

function readState(file: string): State {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as State;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${file} is not a state file of store-blog listen: ${(err as Error).message}`, { cause: err });
  }
}

function writeState(file: string, state: State): void {
  // Written whole, flushed, and renamed into place, so a crash never leaves half a file.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600, flush: true });
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
  // Each call is sent once per try: keepTrying (and follow) do the retrying, without end.
  const requestOptions = { maxRetries: 0, ...(options.signal ? { signal: options.signal } : {}) };
  const client = new BlogClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const stopped = () => {
    log(cursor === undefined ? 'Stopped' : `Stopped: the next run resumes after sequence ${cursor}`);
    return cursor;
  };
  const patiently = <T>(call: () => Promise<T>) =>
    keepTrying(call, {
      signal: options.signal,
      sleep: wait,
      retry: options.retry,
      onRetry: (event) => log(unreachable(event)),
    });
  let cursor: string | undefined;
  const me = await patiently(() => client.me(requestOptions));
  if (!me) return stopped();
  const handle = me.value.store.handle;
  const state = readState(options.stateFile);
  const secret = options.secret ?? state.secret ?? `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
  const place = `${options.baseUrl.replace(/\/+$/, '')} ${handle}`;
  const save = (cursor: string | undefined) =>
    writeState(options.stateFile, {
      ...state,
      secret,
      cursors: { ...state.cursors, ...(cursor === undefined ? {} : { [place]: cursor }) },
    });

  cursor = state.cursors?.[place];
  if (cursor === undefined && !options.fromStart) {
    // A first run forwards what happens from now on: walk to the end of the feed.
    for (;;) {
      const query: EventQuery = { ...(cursor === undefined ? {} : { after: cursor }), limit: 100 };
      const page = await patiently(() => client.events.listPage(query, requestOptions));
      if (!page) return stopped();
      cursor = page.value.meta.next_cursor;
      if (!page.value.meta.has_more) break;
    }
  }
  save(cursor);
  log(`Store ${handle}: forwarding ${options.types?.join(', ') ?? 'every event'} to ${options.forwardTo}`);
  log(`Signing secret: ${secret}`);
  log(cursor === undefined ? 'Ready: starting from the oldest event kept' : `Ready: resuming after sequence ${cursor}`);

  for await (const event of client.events.follow({
    ...(cursor === undefined ? {} : { after: cursor }),
    ...(options.types === undefined ? {} : { types: options.types }),
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    onRetry: (event) => log(unreachable(event)),
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
          signal: options.signal
            ? AbortSignal.any([options.signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)])
            : AbortSignal.timeout(FORWARD_TIMEOUT_MS),
        });
        await res.arrayBuffer().catch(() => undefined);
        outcome = String(res.status);
        if (res.ok) {
          // Saved before anything else happens, the report included: whoever sees the line
          // knows a restart will not send this event again.
          cursor = String(event.sequence);
          save(cursor);
          log(`${event.sequence} ${event.type} ${event.id} → ${outcome}`);
          break;
        }
      } catch (err) {
        if (options.signal?.aborted) break;
        outcome =
          (err as Error).name === 'TimeoutError'
            ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`
            : ((err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message);
      }
      const delay = Math.min(30_000, 1000 * 2 ** attempt);
      log(`${event.sequence} ${event.type} ${event.id} → ${outcome}; trying again in ${delay / 1000} s`);
      await wait(delay, options.signal);
    }
    if (options.signal?.aborted) break;
  }
  return stopped();
}

function unreachable({ error, failures, delayMs }: FollowRetryEvent): string {
  const what = 'status' in error ? `HTTP ${error.status} ${error.code}` : error.code;
  return `The API did not answer (${what}: ${error.message}); trying again in ${(delayMs / 1000).toFixed(1)} s (failure ${failures} in a row)`;
}
