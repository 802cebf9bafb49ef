import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database.js';
import type { CursorCodec } from '../../lib/cursor.js';
import { formatWithOffset } from '../../lib/time.js';
import type { Store } from '../stores/index.js';
import { listAuditEvents } from './audit-repository.js';
import type { AuditEventSchema, AuditQuerySchema } from './audit-schemas.js';

type AuditQuery = Static<typeof AuditQuerySchema>;
type AuditEvent = Static<typeof AuditEventSchema>;

const CURSOR_SCOPE = 'audit';

export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly cursors: CursorCodec,
  ) {}

  /** Newest first (by id, which grows with time), cursor-paged. */
  async list(
    store: Store,
    query: AuditQuery,
    application: string,
  ): Promise<{ data: AuditEvent[]; meta: { next_cursor: string | null; limit: number } }> {
    const limit = query.limit ?? 20;
    const conditions = {
      action: query.action,
      resource_type: query.resource_type,
      resource_id: query.resource_id,
      key_id: query.key_id,
      since: query.since ? Date.parse(query.since) : undefined,
      until: query.until ? Date.parse(query.until) : undefined,
    };
    // Cursors are issued to the store and the listing key's application.
    const holder = { storeId: store.id, application };
    const after = this.cursors.readPosition(CURSOR_SCOPE, conditions, query.cursor, holder);

    const rows = await listAuditEvents(this.db, {
      storeId: store.id,
      ...conditions,
      beforeId: after ? Number(after[0]) : undefined,
      limit: limit + 1,
    });

    const { rows: page, nextCursor } = this.cursors.page(
      CURSOR_SCOPE,
      conditions,
      rows,
      limit,
      (row) => [row.id],
      holder,
    );
    return {
      data: page.map((row) => ({
        id: row.id,
        occurred_at: formatWithOffset(row.occurred_at, store.utcOffset),
        action: row.action,
        resource_type: row.resource_type,
        resource_id: row.resource_id,
        key_id: row.key_id,
        application: row.application,
        request_id: row.request_id,
        changes: JSON.parse(row.changes) as string[],
      })),
      meta: { next_cursor: nextCursor, limit },
    };
  }
}
