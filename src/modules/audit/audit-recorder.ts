import type { Db } from '../../db/database.js';
import { sql, type RawBuilder } from 'kysely';
import { raw, writeTemplate } from '../../db/query-template.js';

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

export interface AuditRow {
  storeId: number;
  occurredAt: number;
  action: string;
  resourceType: string;
  resourceId: string;
  keyId: string | null;
  application: string | null;
  requestId: string | null;
  /** JSON array of the field names written. */
  changes: string;
}

/** The audit event's row: run on its own (recordAudit) and inside a post's one-statement create on PostgreSQL. */
export function insertAuditSql($: AuditRow): RawBuilder<unknown> {
  return sql`INSERT INTO audit_events (store_id, occurred_at, action, resource_type, resource_id, key_id, application, request_id, changes)
    VALUES (${$.storeId}, ${$.occurredAt}, ${$.action}, ${$.resourceType}, ${$.resourceId}, ${$.keyId}, ${$.application}, ${$.requestId}, ${$.changes})`;
}

// Every write records one, so the statement is compiled once (see queryTemplate).
const insertAuditRow = writeTemplate((db, $: AuditRow) => raw(db, insertAuditSql($)));

/** Writes one audit event's row, in the transaction of the write it records. */
export async function insertAudit(trx: Db, row: AuditRow): Promise<void> {
  await insertAuditRow(trx, row);
}

/** Records one audit event. Call it with the transaction of the write it records. */
export async function recordAudit(trx: Db, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertAuditRow(trx, {
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
