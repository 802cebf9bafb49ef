import type { Db } from '../../db/database.js';

export const AUDIT_ACTIONS = [
  'post.created',
  'post.updated',
  'post.published',
  'post.scheduled',
  'post.unpublished',
  'post.deleted',
  'category.created',
  'image.uploaded',
  'image.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did a write; null members for the operator CLI. */
export interface Actor {
  storeId: number;
  keyId: string | null;
  application: string | null;
  requestId: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  resourceType: 'post' | 'category' | 'image';
  resourceId: string | number;
  /** Names of the fields written. */
  changes: string[];
  at: number;
}

/** Records one audit event. Call it with the transaction of the write it records. */
export async function recordAudit(trx: Db, actor: Actor, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_events')
    .values({
      store_id: actor.storeId,
      occurred_at: entry.at,
      action: entry.action,
      resource_type: entry.resourceType,
      resource_id: String(entry.resourceId),
      key_id: actor.keyId,
      application: actor.application,
      request_id: actor.requestId,
      changes: JSON.stringify(entry.changes),
    })
    .execute();
}
