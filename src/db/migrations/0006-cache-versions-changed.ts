import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: each cache_versions row records the transaction that last changed it
 * (`changed_xid`), so that an instance keeping the versions in Redis can find, once a second,
 * every row changed since its previous look (rows of transactions newer than that look's
 * snapshot horizon; see src/cache/shared-versions.ts) instead of reading them all.
 */
export function cacheVersionsChangedMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`ALTER TABLE cache_versions ADD COLUMN changed_xid xid8`.execute(db);
      await sql`
        CREATE OR REPLACE FUNCTION cache_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          store bigint;
        BEGIN
          IF TG_TABLE_NAME = 'stores' THEN
            store := COALESCE(NEW.id, OLD.id);
          ELSE
            store := COALESCE(NEW.store_id, OLD.store_id);
          END IF;
          INSERT INTO cache_versions AS v (store_id, keys_version, content_version, usage_version, changed_xid)
          VALUES (store, 1, 1, 1, pg_current_xact_id())
          ON CONFLICT (store_id) DO UPDATE SET
            keys_version = v.keys_version + (TG_ARGV[0] IN ('keys', 'all'))::int,
            content_version = v.content_version + (TG_ARGV[0] IN ('content', 'all'))::int,
            usage_version = v.usage_version + (TG_ARGV[0] IN ('usage', 'all'))::int,
            changed_xid = pg_current_xact_id();
          RETURN NULL;
        END
        $$`.execute(db);
    },
  };
}
