// The events feed (GET /v1/events): every change of the store in commit order, each once.
// `list` walks what is there now; `follow` keeps polling, resuming from a saved cursor.
import type { RequestOptions } from '../transport.js';
import type { EventPage, EventQuery, FeedEvent } from '../types.js';
import { id, requestOptions, Resource } from './resource.js';

export interface FollowOptions extends RequestOptions {
  /** Resume after this cursor (a saved `next_cursor`, or an event's `sequence`); default: the oldest event kept. */
  after?: string | number;
  /** Types or `post.*`-style prefixes; default: every type. */
  types?: string[];
  /** Events per page, 1–100 (default 100). */
  limit?: number;
  /** Wait between polls once the feed is caught up (default 2000 ms). */
  pollIntervalMs?: number;
  /**
   * Called with the cursor to resume from once every event before it has been handed to your
   * loop and the loop asked for the next one: save it, and pass it as `after` after a restart.
   */
  onCursor?: (cursor: string) => void | Promise<void>;
  /** The wait between polls (tests inject one); it resolves early when `signal` aborts. */
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
   * `sequence`) to resume exactly where you stopped. A cursor older than the retention throws
   * BlogApiError `cursor_expired`: rebuild your copy, then follow without `after`.
   */
  async *follow(options: FollowOptions = {}): AsyncGenerator<FeedEvent, void, undefined> {
    const sleep = options.sleep ?? abortableSleep;
    const { signal } = options;
    let after = options.after === undefined ? undefined : String(options.after);
    while (!signal?.aborted) {
      const query: EventQuery = {
        ...(after === undefined ? {} : { after }),
        ...(options.types === undefined ? {} : { types: options.types.join(',') }),
        ...(options.limit === undefined ? {} : { limit: options.limit }),
      };
      const page = await this.listPage(query, options);
      for (const event of page.data) {
        yield event;
        if (signal?.aborted) return;
      }
      after = page.meta.next_cursor;
      await options.onCursor?.(after);
      if (!page.meta.has_more) await sleep(options.pollIntervalMs ?? 2000, signal);
    }
  }
}
