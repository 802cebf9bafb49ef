// GET /v1/events: a store's events in commit order (docs/api-behaviour.md, "Keeping a mirror in
// sync"). Each event's `sequence` is given at commit under the store's lock (migration 0012), so
// the sequences a reader sees have no hole that a later commit could fill: a page plus its
// cursor never skip an event. The page and the store's counter are read in one statement, so the
// cursor of a page that is not full (the newest committed sequence) belongs to the same snapshot
// as the events it follows.
import { sql, type RawBuilder } from 'kysely';
import type { Db, Engine } from '../../db/database.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Store } from '../stores/index.js';
import { EVENT_PAGE_DEFAULT, type EventPageView, type EventQueryInput, type EventView } from './event-schemas.js';
import { parseTypeFilter, type TypeFilter } from './type-filter.js';

const SEQUENCE = /^(0|[1-9][0-9]{0,15})$/;

interface FeedRow {
  last_sequence: number | string | null;
  purged_through: number | string | null;
  id: string | null;
  type: string | null;
  body: string | null;
  sequence: number | string | null;
}

/** The store's counter: its newest sequence and the newest one dropped by retention. */
export function counterQuery(engine: Engine, storeId: number): RawBuilder<unknown> {
  return engine === 'postgres'
    ? sql`SELECT event_sequence AS last_sequence, events_purged_through AS purged_through FROM cache_versions WHERE store_id = ${storeId}`
    : sql`SELECT last_sequence, purged_through FROM event_sequences WHERE store_id = ${storeId}`;
}

export function typeCondition(filter: TypeFilter | null): RawBuilder<unknown> {
  if (filter === null) return sql`TRUE`;
  const parts = [
    ...(filter.exact.length > 0 ? [sql`type IN (${sql.join(filter.exact)})`] : []),
    ...filter.prefixes.map((p) => sql`type LIKE ${`${p}.%`}`),
  ];
  return sql`(${sql.join(parts, sql` OR `)})`;
}

/** An event row as the feed shows it. */
export function presentEvent(store: Store, row: { id: string; body: string; sequence: number | string }): EventView {
  const body = JSON.parse(row.body) as { type: string; timestamp: string; data: unknown };
  return {
    id: row.id,
    sequence: Number(row.sequence),
    type: body.type,
    timestamp: body.timestamp,
    handle: store.handle,
    data: body.data,
  };
}

export class EventFeed {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    /** Days events stay in the feed (EVENT_RETENTION_DAYS), for the 410's message. */
    private readonly retentionDays: number,
  ) {}

  /**
   * One event of the store's feed by its id (the webhook-id of its deliveries), as the feed shows
   * it. Not found (404) when it is another store's, not in the feed (a webhook.test event, one
   * written before the feed existed) or past retention: at or below the store's horizon, where
   * the feed no longer shows it even while a pending delivery keeps its row.
   */
  async get(store: Store, id: string): Promise<EventView> {
    const counter = counterQuery(this.engine, store.id);
    const { rows } = await sql<{ id: string; body: string; sequence: number | string }>`
      SELECT id, body, sequence FROM webhook_events
      WHERE id = ${id} AND store_id = ${store.id} AND sequence IS NOT NULL
        AND sequence > COALESCE((SELECT c.purged_through FROM (${counter}) c), 0)`.execute(this.db);
    const row = rows[0];
    if (!row) throw new ApiError('not_found');
    return presentEvent(store, row);
  }

  async list(store: Store, query: EventQueryInput): Promise<EventPageView> {
    const limit = query.limit ?? EVENT_PAGE_DEFAULT;
    const filter = parseTypeFilter(query.types);
    if (query.after !== undefined && !SEQUENCE.test(query.after)) {
      throw new ApiError('validation_failed', [
        detail('after', 'must be a next_cursor from this feed or an event sequence (a whole number)'),
      ]);
    }
    const after = query.after === undefined ? null : Number(query.after);
    const counter = counterQuery(this.engine, store.id);
    // Without a cursor, the feed starts after the retention horizon.
    const from = after === null ? sql`COALESCE((SELECT c.purged_through FROM (${counter}) c), 0)` : sql`${after}`;
    const { rows } = await sql<FeedRow>`
      SELECT m.last_sequence, m.purged_through, e.id, e.type, e.body, e.sequence
      FROM (SELECT 1 AS one) o
      LEFT JOIN (${counter}) m ON TRUE
      LEFT JOIN (
        SELECT id, type, body, sequence FROM webhook_events
        WHERE store_id = ${store.id} AND sequence > ${from} AND ${typeCondition(filter)}
        ORDER BY sequence LIMIT ${limit + 1}
      ) e ON TRUE
      ORDER BY e.sequence`.execute(this.db);
    const last = Number(rows[0]?.last_sequence ?? 0);
    const purged = Number(rows[0]?.purged_through ?? 0);
    if (after !== null && after < purged) {
      throw new ApiError('cursor_expired', [
        detail(
          'after',
          `events up to sequence ${purged} are past the ${this.retentionDays}-day retention; read the resources again, then follow from the next_cursor of GET /v1/events without after`,
        ),
      ]);
    }
    if (after !== null && after > last) {
      throw new ApiError('validation_failed', [
        detail(
          'after',
          `is beyond the newest event of this store (sequence ${last}); use a next_cursor from this feed`,
        ),
      ]);
    }
    const events = rows.filter(
      (r): r is FeedRow & { id: string; body: string; sequence: number | string } => r.id !== null,
    );
    const hasMore = events.length > limit;
    const page = events.slice(0, limit);
    // A full page resumes after its last event; otherwise everything up to the counter was seen.
    const next = hasMore ? Number(page[page.length - 1].sequence) : Math.max(last, after ?? 0);
    return {
      data: page.map((r) => presentEvent(store, r)),
      meta: { next_cursor: String(next), has_more: hasMore, limit },
    };
  }
}
