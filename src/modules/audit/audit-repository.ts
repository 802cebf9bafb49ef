// Plain data access for reading audit events; takes `db`. The insert stays in audit-recorder.ts,
// beside the SQL that PostgreSQL's one-statement post create splices in.
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AuditEventsTable } from '../../db/schema.js';

export interface AuditFilter {
  storeId: number;
  action?: string;
  resource_type?: string;
  resource_id?: string;
  key_id?: string;
  since?: number;
  until?: number;
  /** Only events older than this id (the cursor). */
  beforeId?: number;
  limit: number;
}

/** The store's audit events matching every filter given, newest first (by id). */
export function listAuditEvents(db: Db, f: AuditFilter): Promise<Array<Selectable<AuditEventsTable>>> {
  let q = db.selectFrom('audit_events').selectAll().where('store_id', '=', f.storeId);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.resource_type) q = q.where('resource_type', '=', f.resource_type);
  if (f.resource_id) q = q.where('resource_id', '=', f.resource_id);
  if (f.key_id) q = q.where('key_id', '=', f.key_id);
  if (f.since !== undefined) q = q.where('occurred_at', '>=', f.since);
  if (f.until !== undefined) q = q.where('occurred_at', '<', f.until);
  if (f.beforeId !== undefined) q = q.where('id', '<', f.beforeId);
  return q.orderBy('id', 'desc').limit(f.limit).execute();
}
