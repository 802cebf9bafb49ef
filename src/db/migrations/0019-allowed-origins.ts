import type { Kysely } from 'kysely';

/**
 * The web origins whose pages may call a store's Content API from the browser (CORS,
 * docs/content-api.md): their exact `scheme://host[:port]`, comma-separated; null allows none.
 *
 * Expand only: a nullable column the previous release never reads or writes.
 */
export function allowedOriginsMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('stores').addColumn('allowed_origins', 'text').execute();
    },
  };
}
