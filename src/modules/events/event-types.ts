// The events a webhook endpoint can receive. Their names are the audit actions of the same
// changes, plus `webhook.test`, which only POST /v1/webhooks/{id}/test sends.
import { sql, type RawBuilder } from 'kysely';
import type { Engine } from '../../db/database.js';
import { CONTENT_ACTIONS } from '../audit/index.js';

export const WEBHOOK_EVENT_TYPES = [...CONTENT_ACTIONS, 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Subscribes an endpoint to every event type, including ones added later. */
export const ALL_EVENTS = '*';

export function isEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Whether an endpoint subscribed to `events` receives an event of `type`. */
export function subscribes(events: readonly string[], type: WebhookEventType): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}

/**
 * subscribes() as a condition on an endpoint row whose `events` column (a JSON array) is
 * `events`, for the statements that queue an event's deliveries; the parity test
 * (test/api/engine-parity.test.ts) holds both engines to the same deliveries. PostgreSQL reads
 * the array as jsonb. SQLite looks for the quoted name in the array's text: the column is
 * always JSON.stringify of validated names (letters and dots, or "*"), so `"post.created"`
 * occurs in it exactly when the array holds that name; json_each() cost a measurable share of
 * every content write even for a store with no endpoint (docs/performance.md).
 */
export function subscribesSql(engine: Engine, events: RawBuilder<unknown>, type: unknown): RawBuilder<boolean> {
  return engine === 'postgres'
    ? sql<boolean>`(${events}::jsonb ? ${ALL_EVENTS} OR ${events}::jsonb ? CAST(${type} AS text))`
    : sql<boolean>`(instr(${events}, ${sql.lit(JSON.stringify(ALL_EVENTS))}) > 0 OR instr(${events}, '"' || ${type} || '"') > 0)`;
}
