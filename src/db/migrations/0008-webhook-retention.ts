import type { Kysely } from 'kysely';

/** Housekeeping removes a webhook event once no delivery refers to it: that lookup needs an index. */
export function webhookRetentionMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
    },
  };
}
