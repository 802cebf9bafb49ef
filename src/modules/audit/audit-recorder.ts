import type { Db } from '../../db/database.js';
import { writeTemplate } from '../../db/query-template.js';

/** The changes to a store's content; webhooks announce these same actions as events. */
export const CONTENT_ACTIONS = [
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
] as const;

export const AUDIT_ACTIONS = [
  ...CONTENT_ACTIONS,
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
const insertEvent = writeTemplate((db, $: Actor & Omit<AuditEntry, 'resourceId' | 'changes' | 'at'> & { occurredAt: number; resourceId: string; changes: string }) =>
  db.insertInto('audit_events').values({
    store_id: $.storeId,
    occurred_at: $.occurredAt,
    action: $.action,
    resource_type: $.resourceType,
    resource_id: $.resourceId,
    key_id: $.keyId,
    application: $.application,
    request_id: $.requestId,
    changes: $.changes,
  }),
);

/** Records one audit event. Call it with the transaction of the write it records. */
export async function recordAudit(trx: Db, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertEvent(trx, {
    storeId: actor.storeId,
    occurredAt: entry.at,
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: String(entry.resourceId),
    keyId: actor.keyId,
    application: actor.application,
    requestId: actor.requestId,
    changes: JSON.stringify(entry.changes),
  });
}
