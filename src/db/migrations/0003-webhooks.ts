import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Webhooks: the per-store switch, endpoints, the outbox of events (written in the transaction of
 * the change), one delivery per event and endpoint, and the publish times of scheduled posts
 * still waiting for their `post.published` event.
 */
export function webhooksMigration(_engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('stores')
        .addColumn('webhooks_enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();

      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'bigint', (c) => c.notNull().references('stores.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'bigint')
        .addColumn('failing_since', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_store')
        .on('webhook_endpoints')
        .columns(['store_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'bigint', (c) => c.notNull().references('stores.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_attempt_at', 'bigint')
        .addColumn('last_response_status', 'integer')
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('lease_token', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'created_at', 'id'])
        .execute();
      // Claims look at pending deliveries only; the partial index stays as small as the backlog.
      await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(
        db,
      );

      await db.schema
        .createTable('webhook_schedules')
        .addColumn('post_id', 'bigint', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('due_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_schedules_due').on('webhook_schedules').columns(['due_at']).execute();
    },
  };
}
