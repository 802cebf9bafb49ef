import { type Kysely } from 'kysely';

/**
 * Housekeeping: the lease that lets one instance of a fleet run a pass at a time, the record of
 * image files whose removal is still owed, and the indexes that let expired rows be found in
 * small batches without scanning whole tables.
 */
export function housekeepingMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('housekeeping_lease')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        // Where the sweep over stored media files goes on next pass (a listing position).
        .addColumn('media_cursor', 'text')
        .execute();

      // Written in the transaction that marks an image deleted and removed once its file is
      // gone: a row left here is a file housekeeping still has to remove.
      await db.schema
        .createTable('media_deletions')
        .addColumn('image_id', 'text', (c) => c.primaryKey().references('images.id'))
        .addColumn('requested_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('media_deletions_requested')
        .on('media_deletions')
        .columns(['requested_at'])
        .execute();

      await db.schema
        .createIndex('idempotency_records_expires')
        .on('idempotency_records')
        .columns(['expires_at'])
        .execute();
      await db.schema
        .createIndex('content_fingerprints_created')
        .on('content_fingerprints')
        .columns(['created_at'])
        .execute();
      await db.schema
        .createIndex('delete_confirmations_expires')
        .on('delete_confirmations')
        .columns(['expires_at'])
        .execute();
    },
  };
}
