import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: a topic's new version is the commit's clock time in microseconds (or one more than
 * the old version when that is larger), no longer the old version plus one. A version then
 * names one state of one database's life: after a restore from a dump or to a point in time,
 * new writes get versions above every version handed out before the restore, so a value cached
 * (in a process or in Redis) under a version of the lost history can never match a new one.
 * Expand-only: the table is unchanged, and the previous release's "old + 1" still grows.
 */
export function cacheVersionsStampedMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`
        CREATE OR REPLACE FUNCTION cache_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          store bigint;
          stamp bigint := (extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
        BEGIN
          IF TG_TABLE_NAME = 'stores' THEN
            store := COALESCE(NEW.id, OLD.id);
          ELSE
            store := COALESCE(NEW.store_id, OLD.store_id);
          END IF;
          INSERT INTO cache_versions AS v (store_id, keys_version, content_version, usage_version, changed_xid)
          VALUES (store, stamp, stamp, stamp, pg_current_xact_id())
          ON CONFLICT (store_id) DO UPDATE SET
            keys_version = CASE WHEN TG_ARGV[0] IN ('keys', 'all') THEN GREATEST(v.keys_version + 1, stamp) ELSE v.keys_version END,
            content_version = CASE WHEN TG_ARGV[0] IN ('content', 'all') THEN GREATEST(v.content_version + 1, stamp) ELSE v.content_version END,
            usage_version = CASE WHEN TG_ARGV[0] IN ('usage', 'all') THEN GREATEST(v.usage_version + 1, stamp) ELSE v.usage_version END,
            changed_xid = pg_current_xact_id();
          RETURN NULL;
        END
        $$`.execute(db);
    },
  };
}
