import { sql, type Kysely } from 'kysely';

/**
 * `GET /v1/media/images` lists a store's live images newest first, by (created_at, id). Without
 * this index every page would read and sort all of the store's images (a store uploads up to
 * 500 a day); with it a page reads its own rows from the cursor's position. Partial, like the
 * live-content index: deleted images are never listed.
 *
 * Expand only: an index the previous release does not know and never needs.
 */
export function imageListingMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql`CREATE INDEX images_live_listing ON images (store_id, created_at, id) WHERE deleted_at IS NULL`.execute(
        db,
      );
    },
  };
}
