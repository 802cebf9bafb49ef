import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: one row of cache versions per store (see src/cache/versions.ts). Triggers give a
 * topic a new version whenever a row it is read from changes, in the writing transaction, so
 * every process (API instances, the CLI) sees the new version together with the change. They
 * are deferred to the end of the transaction so that the version row is locked only for the
 * commit itself. SQLite keeps its versions in memory instead (PRAGMA data_version).
 */
export function cacheVersionsMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`
        CREATE TABLE cache_versions (
          store_id bigint PRIMARY KEY,
          keys_version bigint NOT NULL DEFAULT 0,
          content_version bigint NOT NULL DEFAULT 0,
          usage_version bigint NOT NULL DEFAULT 0
        )`.execute(db);
      // TG_ARGV[0]: the topic the table belongs to; a change to a store changes all three.
      await sql`
        CREATE FUNCTION cache_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          store bigint;
        BEGIN
          IF TG_TABLE_NAME = 'stores' THEN
            store := COALESCE(NEW.id, OLD.id);
          ELSE
            store := COALESCE(NEW.store_id, OLD.store_id);
          END IF;
          INSERT INTO cache_versions AS v (store_id, keys_version, content_version, usage_version)
          VALUES (store, 1, 1, 1)
          ON CONFLICT (store_id) DO UPDATE SET
            keys_version = v.keys_version + (TG_ARGV[0] IN ('keys', 'all'))::int,
            content_version = v.content_version + (TG_ARGV[0] IN ('content', 'all'))::int,
            usage_version = v.usage_version + (TG_ARGV[0] IN ('usage', 'all'))::int;
          RETURN NULL;
        END
        $$`.execute(db);
      const topics: Array<[string, string]> = [
        ['stores', 'all'],
        ['api_keys', 'keys'],
        ['posts', 'content'],
        ['post_categories', 'content'],
        ['categories', 'content'],
        ['images', 'content'],
        ['daily_usage', 'usage'],
      ];
      for (const [table, topic] of topics) {
        await sql
          .raw(
            `CREATE CONSTRAINT TRIGGER ${table}_cache_version AFTER INSERT OR UPDATE OR DELETE ON ${table} ` +
              `DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cache_version_bump('${topic}')`,
          )
          .execute(db);
      }
    },
  };
}
