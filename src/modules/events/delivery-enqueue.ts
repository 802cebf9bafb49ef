// Every delivery is queued by the one statement built here, whatever queues it: a content event
// (to each subscribed endpoint), a test event or a retry (to one endpoint), a replay (events of
// the feed to one endpoint). So the rules of a new delivery are written once, for both engines:
// - who receives it: an enabled endpoint subscribed to the event's type (event-types.ts); a test
//   event and a retry go to the endpoint they name, whatever it subscribes to (the caller has
//   checked it);
// - when: due at once while the store's queue has room (delivery-queue.ts), else held. The rows
//   of one statement take the room in their order: a replay's oldest events are due, the rest
//   held, as if queued one by one;
// - its id: `whd_` and 24 characters of [a-z0-9] (docs/webhooks.md): a prefix drawn once for the
//   statement (`whd_` and 21 random characters) and the row's number in the statement in base 36
//   in three characters, made in SQL so that one statement queues any number of rows.
import { sql, type RawBuilder } from 'kysely';
import type { Db, Engine } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';
import { randomLowerAlnum } from '../../lib/crypto.js';
import { queueRoomSql } from './delivery-queue.js';
import { subscribesSql } from './event-types.js';

const ID_RANDOM_LENGTH = 24;
// Three characters number 46,656 rows, more than a replay queues (REPLAY_MAX_EVENTS).
const ORDINAL_DIGITS = 3;
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** The id prefix of one statement's deliveries. */
export const newDeliveryIdPrefix = () => `whd_${randomLowerAlnum(ID_RANDOM_LENGTH - ORDINAL_DIGITS)}`;

/** The id of the delivery numbered `ordinal` (from 0) of a statement whose prefix is `prefix`. */
function deliveryIdSql(prefix: unknown, ordinal: RawBuilder<unknown>): RawBuilder<string> {
  const digits = [2, 1, 0].map(
    (place) => sql`substr(${sql.lit(BASE36)}, CAST((${ordinal} / ${sql.lit(36 ** place)}) % 36 + 1 AS integer), 1)`,
  );
  return sql<string>`(CAST(${prefix} AS text) || ${sql.join(digits, sql` || `)})`;
}

/** Who receives the deliveries a statement queues. */
export type Recipients =
  /** An event to every enabled endpoint of the store subscribed to its type (a content event). */
  | { kind: 'subscribers'; eventId: string; type: string }
  /** An event to this endpoint alone, whatever it subscribes to (a test event, a retry). */
  | { kind: 'endpoint'; endpointId: string; eventId: string }
  /**
   * The store's events that `events` (a condition on the event row `ev`) picks, to this endpoint
   * while it is enabled, those of the types it subscribes to, in feed order (a replay).
   */
  | { kind: 'replay'; endpointId: string; events: RawBuilder<unknown> };

export interface EnqueueArgs {
  storeId: number;
  /** When they are queued, and due unless held. */
  at: number;
  /** newDeliveryIdPrefix() */
  idPrefix: string;
  to: Recipients;
}

/** An enabled endpoint `e` subscribed to events of `type`. */
const receives = (engine: Engine, type: unknown) =>
  sql`e.enabled = 1 AND ${subscribesSql(engine, sql`e.events`, type)}`;

/** The deliveries' rows before their id and due time: store_id, endpoint_id, event_id and n, their number. */
function recipientsSql(engine: Engine, storeId: number, to: Recipients): RawBuilder<unknown> {
  switch (to.kind) {
    case 'subscribers': {
      // The endpoint's place among the store's endpoints (at most ENDPOINTS_PER_STORE): unique
      // in the statement without a window function, whose sort SQLite runs through a temporary
      // b-tree on every content write.
      const place = sql`(SELECT count(*) FROM webhook_endpoints o WHERE o.store_id = e.store_id AND o.id < e.id)`;
      return sql`SELECT e.store_id, e.id AS endpoint_id, CAST(${to.eventId} AS text) AS event_id, ${place} AS n
        FROM webhook_endpoints e
        WHERE e.store_id = ${storeId} AND ${receives(engine, to.type)}`;
    }
    case 'endpoint':
      return sql`SELECT e.store_id, e.id AS endpoint_id, CAST(${to.eventId} AS text) AS event_id, 0 AS n
        FROM webhook_endpoints e
        WHERE e.store_id = ${storeId} AND e.id = ${to.endpointId}`;
    case 'replay':
      return sql`SELECT e.store_id, e.id AS endpoint_id, ev.id AS event_id, row_number() OVER (ORDER BY ev.sequence) - 1 AS n
        FROM webhook_endpoints e INNER JOIN webhook_events ev ON ev.store_id = ${storeId}
        WHERE e.store_id = ${storeId} AND e.id = ${to.endpointId} AND ${receives(engine, sql`ev.type`)} AND ${to.events}`;
  }
}

/**
 * The statement that queues the deliveries: pending, untried, due at `at` while the store's queue
 * has room and held past it. Runs on its own (enqueueDeliveries) or inside a larger statement (a
 * post's one-statement create on PostgreSQL); every value is a parameter, so it compiles once
 * into a template (query-template.ts).
 */
export function enqueueSql(engine: Engine, $: EnqueueArgs): RawBuilder<unknown> {
  return sql`
    INSERT INTO webhook_deliveries (id, store_id, endpoint_id, event_id, status, attempts, last_attempt_at, last_response_status, next_attempt_at, lease_token, lease_until, created_at)
    SELECT ${deliveryIdSql($.idPrefix, sql`r.n`)}, r.store_id, r.endpoint_id, r.event_id, 'pending', 0, NULL, NULL,
      CASE WHEN r.n < ${queueRoomSql($.storeId)} THEN CAST(${$.at} AS bigint) END, NULL, NULL, CAST(${$.at} AS bigint)
    FROM (${recipientsSql(engine, $.storeId, $.to)}) r`;
}

const engineOf = (db: Db): Engine => (isPostgres(db) ? 'postgres' : 'sqlite');

/** Queues the deliveries; resolves with their ids. */
export async function enqueueDeliveries(db: Db, $: EnqueueArgs): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`${enqueueSql(engineOf(db), $)} RETURNING id`.execute(db);
  return rows.map((row) => row.id);
}

/** Queues the deliveries; resolves with how many, without reading their ids back (a replay queues thousands). */
export async function enqueueCount(db: Db, $: EnqueueArgs): Promise<number> {
  const result = await sql`${enqueueSql(engineOf(db), $)}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
