// The events feed (GET /v1/events): every change of the store in commit order, each once.
// `list` walks what is there now; `follow` keeps polling, resuming from a saved cursor, and
// waits out outages (keep-trying.ts).
import type { EventTypeFilter, FeedEvent, FeedEventMatching } from '../event-types.js';
import { checkFollowRetry, keepTrying, type FollowRetryEvent, type FollowRetryOptions } from '../keep-trying.js';
import type { RequestOptions } from '../transport.js';
import type { EventPage, EventQuery } from '../types.js';
import { id, requestOptions, Resource } from './resource.js';

export interface FollowOptions<F extends EventTypeFilter = EventTypeFilter> extends RequestOptions {
  /** Resume after this cursor (a saved `next_cursor`, or an event's `sequence`); default: the oldest event kept. */
  after?: string | number;
  /** Event types or `<resource>.*` prefixes (`post.*`); default: every type. The events yielded are typed to match. */
  types?: readonly F[];
  /** Events per page, 1–100 (default 100). */
  limit?: number;
  /** Wait between polls once the feed is caught up (default 2000 ms). */
  pollIntervalMs?: number;
  /**
   * Called with the cursor to resume from once every event before it has been handed to your
   * loop and the loop asked for the next one: save it, and pass it as `after` after a restart.
   */
  onCursor?: (cursor: string) => void | Promise<void>;
  /**
   * The back-off while the service cannot be reached or answers 5xx/429 (keep-trying.ts):
   * `baseDelayMs` 500, doubling per failure in a row, up to `maxDelayMs` 30 000, equal jitter.
   */
  retry?: FollowRetryOptions;
  /** Called before each wait of that back-off (for logging; an exception from it is ignored). */
  onRetry?: (event: FollowRetryEvent) => void;
  /** The wait between polls and before retries (tests inject one); it ends early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export type { FollowRetryEvent, FollowRetryOptions } from '../keep-trying.js';

export class EventsApi extends Resource {
  /** One page: events after `after`, and the cursor to continue from (present on every page, also an empty one). */
  async listPage(query: EventQuery = {}, options?: RequestOptions): Promise<EventPage> {
    return this.body({ method: 'GET', path: '/v1/events', query, options: requestOptions(options) });
  }

  /**
   * One event of the feed by its id: the `id` of a feed item, or the `webhook-id` header of a
   * webhook delivery. Past the feed's retention, or unknown, it throws BlogApiError not_found.
   */
  async get(eventId: string, options?: RequestOptions): Promise<FeedEvent> {
    return this.body({ method: 'GET', path: `/v1/events/${id(eventId)}`, options: requestOptions(options) });
  }

  /** Every event after `after` that is in the feed now, page after page, oldest first. */
  async *list(
    query: Omit<EventQuery, 'after'> & { after?: string | number } = {},
    options?: RequestOptions,
  ): AsyncGenerator<FeedEvent, void, undefined> {
    const { after: start, ...rest } = query;
    let after = start === undefined ? undefined : String(start);
    for (;;) {
      const page = await this.listPage({ ...rest, ...(after === undefined ? {} : { after }) }, options);
      yield* page.data;
      after = page.meta.next_cursor;
      if (!page.meta.has_more) return;
    }
  }

  /**
   * Follows the feed until `signal` aborts: yields every event once, in commit order, and polls
   * every `pollIntervalMs` once caught up. Save the cursor given to `onCursor` (or each event's
   * `sequence`) to resume exactly where you stopped.
   *
   * It outlives outages: a connection error, a timeout, a 5xx or a 429 (or any answer but those
   * below) is retried with the back-off of `retry`, for as long as it takes, from the same
   * cursor, so nothing is missed or repeated. It ends only when `signal` aborts (quietly) or on
   * 401, 403, 422, or 410 `cursor_expired` (a cursor older than the retention: rebuild your
   * copy, then follow without `after`), which it throws as BlogApiError.
   */
  async *follow<const F extends EventTypeFilter = EventTypeFilter>(
    options: FollowOptions<F> = {},
  ): AsyncGenerator<FeedEventMatching<F>, void, undefined> {
    checkFollowRetry(options.retry);
    const sleep = options.sleep ?? abortableSleep;
    const { signal } = options;
    // Each page is asked once per try: the back-off below does the retrying, without end.
    const pageOptions: RequestOptions = { ...requestOptions(options), maxRetries: options.maxRetries ?? 0 };
    let after = options.after === undefined ? undefined : String(options.after);
    while (!signal?.aborted) {
      const query: EventQuery = {
        ...(after === undefined ? {} : { after }),
        ...(options.types === undefined ? {} : { types: options.types.join(',') }),
        ...(options.limit === undefined ? {} : { limit: options.limit }),
      };
      const answered = await keepTrying(() => this.listPage(query, pageOptions), {
        signal,
        sleep,
        retry: options.retry,
        onRetry: options.onRetry,
      });
      if (!answered) return;
      const page = answered.value;
      for (const event of page.data) {
        // The service filtered by `types`, so each event is of a type the filter matches.
        yield event as FeedEventMatching<F>;
        if (signal?.aborted) return;
      }
      after = page.meta.next_cursor;
      await options.onCursor?.(after);
      if (!page.meta.has_more) await sleep(options.pollIntervalMs ?? 2000, signal).catch(rethrowUnlessAborted(signal));
    }
  }
}

function rethrowUnlessAborted(signal: AbortSignal | undefined) {
  return (err: unknown) => {
    if (!signal?.aborted) throw err;
  };
}
