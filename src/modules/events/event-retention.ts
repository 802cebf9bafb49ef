// Retention of the events feed, run by housekeeping (docs/housekeeping.md). The feed drops a
// prefix of each store's sequences, never a hole: first the store's horizon moves up to its
// newest event past retention, then events at or below the horizon go, once no webhook delivery
// refers to them (a delivery still pending keeps its event's row, but not its place in the
// feed). A cursor below the horizon answers 410 cursor_expired (event-feed.ts).
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/engine-of.js';

/** Moves every store's horizon up to its newest event created at or before `cutoff`; returns the stores moved. */
export async function advanceFeedHorizons(db: Db, cutoff: number): Promise<number> {
  const expired = sql`SELECT store_id, max(sequence) AS through FROM webhook_events WHERE created_at <= ${cutoff} AND sequence IS NOT NULL GROUP BY store_id`;
  const result = isPostgres(db)
    ? await sql`UPDATE cache_versions AS c SET events_purged_through = h.through FROM (${expired}) AS h
        WHERE c.store_id = h.store_id AND h.through > c.events_purged_through`.execute(db)
    : await sql`UPDATE event_sequences SET purged_through = h.through FROM (${expired}) AS h
        WHERE event_sequences.store_id = h.store_id AND h.through > event_sequences.purged_through`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Deletes up to `limit` events no delivery refers to: feed events at or below their store's
 * horizon, and `webhook.test` events (not in the feed) created at or before `testCutoff`.
 */
export async function deleteExpiredEvents(db: Db, testCutoff: number, limit: number): Promise<number> {
  const horizon = isPostgres(db)
    ? sql`(SELECT c.events_purged_through FROM cache_versions c WHERE c.store_id = e.store_id)`
    : sql`(SELECT c.purged_through FROM event_sequences c WHERE c.store_id = e.store_id)`;
  const result = await sql`
    DELETE FROM webhook_events WHERE id IN (
      SELECT e.id FROM webhook_events e
      WHERE (CASE WHEN e.sequence IS NULL THEN e.created_at <= ${testCutoff} ELSE e.sequence <= ${horizon} END)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
      LIMIT ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
