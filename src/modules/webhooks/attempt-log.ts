// Each delivery attempt, kept for GET /v1/webhooks/{id}/deliveries/{delivery_id}: written when
// the attempt starts (so one in progress shows as such, and one cut short by a crash shows as
// interrupted rather than not at all), completed with its outcome in the transaction that records
// the delivery's. Deleted with its delivery (retention: docs/webhooks.md).
import type { Db } from '../../db/database.js';
import { randomLowerAlnum } from '../../lib/crypto.js';
import type { SendOutcome } from './http-sender.js';

export interface StartedAttempt {
  id: string;
  /** The store's handle, sent in the X-Store-Handle header. */
  handle: string;
  /** The event's place in the events feed (X-Event-Sequence); null for `webhook.test`. */
  sequence: number | null;
}

/** Records the start of an attempt at `delivery` under its claim `leaseToken`. */
export async function startAttempt(
  db: Db,
  deliveryId: string,
  leaseToken: string,
  startedAt: number,
): Promise<StartedAttempt> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('stores as s', 's.id', 'd.store_id')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .select(['d.store_id', 's.handle', 'ev.sequence'])
    .where('d.id', '=', deliveryId)
    .executeTakeFirstOrThrow();
  const id = `wha_${randomLowerAlnum(24)}`;
  await db
    .insertInto('webhook_attempts')
    .values({
      id,
      delivery_id: deliveryId,
      store_id: row.store_id,
      lease_token: leaseToken,
      started_at: startedAt,
      duration_ms: null,
      response_status: null,
      error: null,
      response_excerpt: null,
      finished: 0,
    })
    .execute();
  return { id, handle: row.handle, sequence: row.sequence === null ? null : Number(row.sequence) };
}

/** Completes an attempt with its outcome. */
export async function finishAttempt(
  db: Db,
  attemptId: string,
  outcome: SendOutcome,
  durationMs: number,
): Promise<void> {
  await db
    .updateTable('webhook_attempts')
    .set({
      finished: 1,
      duration_ms: Math.max(0, Math.round(durationMs)),
      response_status: outcome.status,
      error: outcome.error ?? null,
      response_excerpt: outcome.excerpt ?? null,
    })
    .where('id', '=', attemptId)
    .execute();
}
