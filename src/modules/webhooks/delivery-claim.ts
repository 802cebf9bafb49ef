// Which due deliveries a worker claims (docs/webhooks.md, "Fairness"): no store or endpoint
// can take the sending slots from the others.
// - Per endpoint at most ENDPOINT_CONCURRENCY deliveries in flight, per store STORE_CONCURRENCY,
//   counted over every instance (the claims' leases are in the database).
// - Stores take turns: each claim serves the stores with due deliveries one delivery at a time,
//   starting after the store served first last time, oldest due delivery first within a store.
// - An endpoint whose circuit is open (circuit-breaker.ts) is skipped until it closes.
// On PostgreSQL the claim runs under a transaction-scoped advisory lock, so instances claim one
// after another and the caps hold exactly; on SQLite the single writer does the same.
import { sql } from 'kysely';
import type { Db, Engine } from '../../db/database.js';

/** Deliveries in flight at once to one endpoint, over all instances. */
export const ENDPOINT_CONCURRENCY = 2;
/** Deliveries in flight at once for one store, over all instances. */
export const STORE_CONCURRENCY = 4;
/** pg_advisory_xact_lock key of the claim ("webhook claim"). */
const CLAIM_LOCK = 0x77686b63;

interface Candidate {
  id: string;
  store_id: number;
  endpoint_id: string;
}

export interface ClaimRequest {
  now: number;
  limit: number;
  token: string;
  leaseUntil: number;
  /** The store served first by the previous claim of this worker (turns rotate from it). */
  after: number | null;
}

/** Claims up to `limit` deliveries fairly; resolves with their ids and the store served first. */
export async function claimFairly(
  db: Db,
  engine: Engine,
  request: ClaimRequest,
): Promise<{ ids: string[]; first: number | null }> {
  if (engine === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      return claimIn(trx, request);
    });
  }
  return claimIn(db, request);
}

async function claimIn(db: Db, request: ClaimRequest): Promise<{ ids: string[]; first: number | null }> {
  const { now } = request;
  // In flight: claimed, lease running. They were due when claimed, so the due index finds them.
  const inFlight = await db
    .selectFrom('webhook_deliveries')
    .select(['store_id', 'endpoint_id'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where('lease_until', '>', now)
    .execute();
  const perEndpoint = new Map<string, number>();
  const perStore = new Map<number, number>();
  for (const d of inFlight) {
    perEndpoint.set(d.endpoint_id, (perEndpoint.get(d.endpoint_id) ?? 0) + 1);
    perStore.set(Number(d.store_id), (perStore.get(Number(d.store_id)) ?? 0) + 1);
  }
  // The oldest due deliveries of each endpoint, no more per endpoint than could be sent now.
  const { rows } = await sql<Candidate>`
    SELECT id, store_id, endpoint_id FROM (
      SELECT d.id, d.store_id, d.endpoint_id, d.next_attempt_at,
             row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS rn
      FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}
        AND (d.lease_until IS NULL OR d.lease_until <= ${now})
        AND (e.circuit_open_until IS NULL OR e.circuit_open_until <= ${now})
    ) due
    WHERE rn <= ${ENDPOINT_CONCURRENCY}
    ORDER BY next_attempt_at, id`.execute(db);
  const chosen = takeTurns(rows, perEndpoint, perStore, request.limit, request.after);
  if (chosen.ids.length === 0) return chosen;
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ lease_token: request.token, lease_until: request.leaseUntil })
    .where('id', 'in', chosen.ids)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .returning('id')
    .execute();
  return { ids: claimed.map((c) => c.id), first: chosen.first };
}

/**
 * Round-robin over stores (in the order of their oldest due delivery, starting after `after`),
 * one delivery per store per round, within the caps and `limit`.
 */
export function takeTurns(
  candidates: Candidate[],
  perEndpoint: Map<string, number>,
  perStore: Map<number, number>,
  limit: number,
  after: number | null,
): { ids: string[]; first: number | null } {
  const queues = new Map<number, Candidate[]>();
  for (const c of candidates) {
    const store = Number(c.store_id);
    const queue = queues.get(store);
    if (queue) queue.push(c);
    else queues.set(store, [c]);
  }
  let stores = [...queues.keys()];
  const start = after === null ? -1 : stores.indexOf(after);
  if (start >= 0) stores = [...stores.slice(start + 1), ...stores.slice(0, start + 1)];
  const ids: string[] = [];
  let first: number | null = null;
  while (ids.length < limit && stores.length > 0) {
    const next: number[] = [];
    for (const store of stores) {
      if (ids.length >= limit) break;
      const queue = queues.get(store)!;
      if ((perStore.get(store) ?? 0) >= STORE_CONCURRENCY) continue;
      const i = queue.findIndex((c) => (perEndpoint.get(c.endpoint_id) ?? 0) < ENDPOINT_CONCURRENCY);
      if (i === -1) continue;
      const [c] = queue.splice(i, 1);
      ids.push(c.id);
      first ??= store;
      perStore.set(store, (perStore.get(store) ?? 0) + 1);
      perEndpoint.set(c.endpoint_id, (perEndpoint.get(c.endpoint_id) ?? 0) + 1);
      if (queue.length > 0) next.push(store);
    }
    stores = next;
  }
  return { ids, first };
}
