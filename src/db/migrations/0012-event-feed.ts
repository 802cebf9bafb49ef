import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * The events feed (docs/api-behaviour.md, "Keeping a mirror in sync"): every content event gets
 * a per-store `sequence` in commit order, so a consumer following `GET /v1/events` never misses
 * an event whose transaction committed after a later-numbered one became visible.
 *
 * - PostgreSQL: a deferred constraint trigger numbers each event at commit, from the store's
 *   `cache_versions` row (columns `event_sequence`, `events_purged_through`). That row is
 *   already locked at commit by every content write (migration 0005), so numbering takes no
 *   new lock, cannot deadlock against it, and holds the lock only while committing: the next
 *   writer of the store reads the counter after this one's commit is visible, so a visible
 *   sequence N means every sequence below N is visible too.
 * - SQLite: one writer at a time; the event's insert takes the next number from
 *   `event_sequences` and a trigger moves the counter in the same statement; a savepoint rolled
 *   back (group commit) takes its number back with it.
 *
 * `events_purged_through` / `purged_through`: the newest sequence housekeeping has dropped
 * from the feed (retention); a cursor below it answers 410. `webhook.test` events are not
 * content and get no sequence. Events recorded before this migration have none either.
 *
 * Webhook recovery (docs/webhooks.md): `webhook_attempts` keeps each delivery attempt (written
 * when it starts, completed with its outcome, so one in progress shows as such), and a delivery
 * made by a retry names the delivery it retries (`retry_of`).
 */
export function eventFeedMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('webhook_events').addColumn('sequence', 'bigint').execute();
      await sql`CREATE UNIQUE INDEX webhook_events_feed ON webhook_events (store_id, sequence) WHERE sequence IS NOT NULL`.execute(
        db,
      );
      await db.schema.createIndex('webhook_events_created').on('webhook_events').columns(['created_at']).execute();
      await db.schema.alterTable('webhook_deliveries').addColumn('retry_of', 'text').execute();
      await db.schema
        .createIndex('webhook_deliveries_event_type')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'status', 'created_at'])
        .execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('lease_token', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'integer')
        .addColumn('response_status', 'integer')
        .addColumn('error', 'text')
        .addColumn('response_excerpt', 'text')
        .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('webhook_attempts_delivery')
        .on('webhook_attempts')
        .columns(['delivery_id', 'started_at'])
        .execute();
      if (engine === 'postgres') {
        await sql`ALTER TABLE cache_versions ADD COLUMN event_sequence bigint NOT NULL DEFAULT 0, ADD COLUMN events_purged_through bigint NOT NULL DEFAULT 0`.execute(
          db,
        );
        await sql`
          CREATE FUNCTION event_sequence_assign() RETURNS trigger LANGUAGE plpgsql AS $$
          DECLARE
            next_sequence bigint;
          BEGIN
            INSERT INTO cache_versions AS v (store_id, event_sequence) VALUES (NEW.store_id, 1)
            ON CONFLICT (store_id) DO UPDATE SET event_sequence = v.event_sequence + 1
            RETURNING v.event_sequence INTO next_sequence;
            UPDATE webhook_events SET sequence = next_sequence WHERE id = NEW.id;
            RETURN NULL;
          END
          $$`.execute(db);
        await sql`
          CREATE CONSTRAINT TRIGGER webhook_events_sequence AFTER INSERT ON webhook_events
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.type <> 'webhook.test')
          EXECUTE FUNCTION event_sequence_assign()`.execute(db);
      } else {
        await db.schema
          .createTable('event_sequences')
          .addColumn('store_id', 'bigint', (c) => c.primaryKey())
          .addColumn('last_sequence', 'bigint', (c) => c.notNull())
          .addColumn('purged_through', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        // The insert itself carries the number (event-outbox.ts), so the row, whose body can be
        // kilobytes, is written once; the trigger only moves the counter.
        await sql`
          CREATE TRIGGER webhook_events_sequence AFTER INSERT ON webhook_events WHEN NEW.sequence IS NOT NULL
          BEGIN
            INSERT INTO event_sequences (store_id, last_sequence) VALUES (NEW.store_id, NEW.sequence)
            ON CONFLICT (store_id) DO UPDATE SET last_sequence = excluded.last_sequence;
          END`.execute(db);
      }
    },
  };
}
