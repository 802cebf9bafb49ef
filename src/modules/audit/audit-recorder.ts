import { writeTemplate, type Db } from '../../db/database.js';

export const AUDIT_ACTIONS = [
  'post.created',
  'post.updated',
  'post.published',
  'post.scheduled',
  'post.unpublished',
  'post.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'image.uploaded',
  'image.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
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
  resourceType: 'post' | 'category' | 'image' | 'webhook';
  resourceId: string | number;
  /** Names of the fields written. */
  changes: string[];
  at: number;
}

// Every write records one, so the statement is compiled once (see queryTemplate).
const insertEvent = writeTemplate((db, $) =>
  db.insertInto('audit_events').values({
    store_id: $(0),
    occurred_at: $(1),
    action: $(2),
    resource_type: $(3),
    resource_id: $(4),
    key_id: $(5),
    application: $(6),
    request_id: $(7),
    changes: $(8),
  }),
);

/** Records one audit event. Call it with the transaction of the write it records. */
export async function recordAudit(trx: Db, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertEvent(trx, [
    actor.storeId,
    entry.at,
    entry.action,
    entry.resourceType,
    String(entry.resourceId),
    actor.keyId,
    actor.application,
    actor.requestId,
    JSON.stringify(entry.changes),
  ]);
}
