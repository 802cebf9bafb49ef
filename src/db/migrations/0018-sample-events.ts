import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * A sample event (POST /v1/webhooks/{id}/test with a `type`) is sent to one endpoint like a
 * `webhook.test`, and like it stays out of the events feed: it announces no change. The column
 * marks it; PostgreSQL's sequence trigger skips marked rows as it skips `webhook.test`, and
 * SQLite's insert gives them no sequence (src/modules/events/event-outbox.ts).
 *
 * Expand only: a column with a default the previous release never writes, and a trigger that
 * numbers every row the previous release writes exactly as before.
 */
export function sampleEventsMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine === 'postgres') {
        await sql`ALTER TABLE webhook_events ADD COLUMN sample boolean NOT NULL DEFAULT false`.execute(db);
        await sql`DROP TRIGGER webhook_events_sequence ON webhook_events`.execute(db);
        await sql`
          CREATE CONSTRAINT TRIGGER webhook_events_sequence AFTER INSERT ON webhook_events
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.type <> 'webhook.test' AND NOT NEW.sample)
          EXECUTE FUNCTION event_sequence_assign()`.execute(db);
      } else {
        await sql`ALTER TABLE webhook_events ADD COLUMN sample integer NOT NULL DEFAULT 0`.execute(db);
      }
    },
  };
}
