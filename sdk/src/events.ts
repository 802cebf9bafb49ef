// The events feed (GET /v1/events): every change of the store in commit order, each once.
// `list` walks what is there now; `follow` keeps polling, resuming from a saved cursor.
import type { components, operations } from './generated/openapi.js';

export type FeedEvent = components['schemas']['Event'];
export type EventPage = components['schemas']['EventPage'];
export type EventQuery = NonNullable<operations['listEvents']['parameters']['query']>;

/** One call to the service (client.ts provides it). */
export type EventPageReader = (query: EventQuery) => Promise<EventPage>;

export interface FollowOptions {
  /** Resume after this cursor (a saved `next_cursor`, or an event's `sequence`); default: the oldest event kept. */
  after?: string | number;
  /** Types or `post.*`-style prefixes; default: every type. */
  types?: string[];
  /** Events per page, 1–100 (default 100). */
  limit?: number;
  /** Wait between polls once the feed is caught up (default 2000 ms). */
  pollIntervalMs?: number;
  /** Ends the iteration (at the next poll, or at once while waiting). */
  signal?: AbortSignal;
  /**
   * Called with the cursor to resume from once every event before it has been handed to your
   * loop and the loop asked for the next one: save it, and pass it as `after` after a restart.
   */
  onCursor?: (cursor: string) => void | Promise<void>;
  /** The wait between polls (tests inject one). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
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

export class EventsApi {
  constructor(private readonly readPage: EventPageReader) {}

  /** One page: events after `after` and the cursor to continue from (present on every page). */
  listPage(query: EventQuery = {}): Promise<EventPage> {
    return this.readPage(query);
  }

  /** Every event after `after` that is in the feed now, page after page, oldest first. */
  async *list(query: Omit<EventQuery, 'after'> & { after?: string | number } = {}): AsyncGenerator<FeedEvent> {
    let after = query.after === undefined ? undefined : String(query.after);
    for (;;) {
      const page = await this.readPage({ ...query, after });
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
  async *follow(options: FollowOptions = {}): AsyncGenerator<FeedEvent> {
    const sleep = options.sleep ?? abortableSleep;
    const types = options.types?.join(',');
    let after = options.after === undefined ? undefined : String(options.after);
    while (!options.signal?.aborted) {
      const page = await this.readPage({ after, types, limit: options.limit });
      for (const event of page.data) {
        yield event;
        if (options.signal?.aborted) return;
      }
      after = page.meta.next_cursor;
      await options.onCursor?.(after);
      if (!page.meta.has_more) await sleep(options.pollIntervalMs ?? 2000, options.signal);
    }
  }
}
