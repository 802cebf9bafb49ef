// What tells one database's life from another's, for keeping their keys apart in a shared Redis:
// on PostgreSQL the cluster's system identifier and timeline, the database's OID and the OID of
// its cache_versions table. A copy into another database or cluster, a restore from a dump (its
// tables are created anew) and a point-in-time recovery (a new timeline) each change it, though
// the copied service_settings rows stay the same. SQLite: the empty string (its cache versions
// live in the process, and only counters are kept in Redis).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './database.js';
import type { Engine } from './database.js';

export async function databaseIdentity(db: Db, engine: Engine): Promise<string> {
  if (engine !== 'postgres') return '';
  const { rows } = await sql<{ identity: string }>`SELECT ${IDENTITY_SQL} AS identity`.execute(db);
  return rows[0]!.identity;
}

/** The identity as one SQL expression (the cache versions' reconcile reads it with its rows). */
export const IDENTITY_SQL = sql`concat_ws(':',
  (SELECT system_identifier FROM pg_control_system()),
  (SELECT timeline_id FROM pg_control_checkpoint()),
  (SELECT oid FROM pg_database WHERE datname = current_database()),
  to_regclass('cache_versions')::oid)`;

/** A short name for Redis keys from a random value kept in the database and its identity. */
export function namespaceOf(secret: string, identity: string): string {
  return createHash('sha256').update(`${secret}\n${identity}`).digest('base64url').slice(0, 16);
}
