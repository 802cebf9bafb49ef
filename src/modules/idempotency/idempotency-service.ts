// Idempotency records, scoped to store + application (docs/api-behaviour.md, "Idempotency").
// Insert-first: the row is written before the work starts, so the database's primary key
// decides the race between concurrent identical requests across any number of processes.
import type { WhereInterface } from 'kysely';
import { DAY_MS } from '../../lib/time.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/database.js';
import { sql, type RawBuilder } from 'kysely';
import { raw, writeTemplate } from '../../db/query-template.js';
import type { Clock } from '../../lib/clock.js';
import { statementsOnTheirOwn, type WriteTransactions } from '../../db/group-commit.js';

export const IDEMPOTENCY_RETENTION_MS = DAY_MS;
/** An in-progress record older than this belongs to a request that died; a retry takes it over. */
export const ABANDONED_AFTER_MS = 60_000;

export interface IdempotencyScope {
  storeId: number;
  application: string;
  key: string;
}

export type BeginOutcome =
  | { kind: 'proceed' }
  | { kind: 'replay'; statusCode: number; body: string; location: string | null }
  | { kind: 'reused' }
  | { kind: 'in_progress' };

// Every idempotent request runs both, so they are compiled once (see queryTemplate).
const insertInProgress = writeTemplate(
  (db, $: { storeId: number; application: string; key: string; requestHash: string; now: number; expiresAt: number }) =>
    db.insertInto('idempotency_records').values({
      store_id: $.storeId,
      application: $.application,
      idem_key: $.key,
      request_hash: $.requestHash,
      state: 'in_progress',
      status_code: null,
      response_body: null,
      location: null,
      created_at: $.now,
      expires_at: $.expiresAt,
    }),
);
type Completion = IdempotencyScope & { statusCode: number; body: string; location: string | null };

/**
 * The record's completion with the response stored for replays: run on its own (storeResponse)
 * and inside a post's one-statement create on PostgreSQL.
 */
export function completeRecordSql($: Completion): RawBuilder<unknown> {
  return sql`UPDATE idempotency_records SET state = 'completed', status_code = ${$.statusCode}, response_body = ${$.body}, location = ${$.location}
    WHERE store_id = ${$.storeId} AND application = ${$.application} AND idem_key = ${$.key}`;
}
const markCompleted = writeTemplate((db, $: Completion) => raw(db, completeRecordSql($)));

/** The response an idempotent request stores for its replays. */
export interface StoredResponse {
  scope: IdempotencyScope;
  statusCode: number;
  body: string;
  location: string | null;
}

/** Stores `response` for replays; `db` may be the transaction that wrote the result, so both commit together. */
export async function storeResponse(db: Db, response: StoredResponse): Promise<void> {
  await markCompleted(db, {
    ...response.scope,
    statusCode: response.statusCode,
    body: response.body,
    location: response.location,
  });
}

export class IdempotencyService {
  private readonly writes: WriteTransactions;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** How the record is first written (default: on its own). */
    writes?: WriteTransactions,
  ) {
    this.writes = writes ?? statementsOnTheirOwn(db);
  }

  async begin(scope: IdempotencyScope, requestHash: string): Promise<BeginOutcome> {
    const now = this.clock.now().getTime();
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.tryInsert(scope, requestHash, now)) return { kind: 'proceed' };
      const existing = await this.find(scope);
      if (!existing) continue; // released meanwhile: try to insert again
      if (
        existing.expires_at <= now ||
        (existing.state === 'in_progress' && existing.created_at <= now - ABANDONED_AFTER_MS)
      ) {
        // Past retention (a new request) or abandoned: take the row over, guarded so only one taker wins.
        const taken = await this.db
          .updateTable('idempotency_records')
          .set({
            request_hash: requestHash,
            state: 'in_progress',
            status_code: null,
            response_body: null,
            location: null,
            created_at: now,
            expires_at: now + IDEMPOTENCY_RETENTION_MS,
          })
          .where('store_id', '=', scope.storeId)
          .where('application', '=', scope.application)
          .where('idem_key', '=', scope.key)
          .where('created_at', '=', existing.created_at)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 1) return { kind: 'proceed' };
        continue;
      }
      if (existing.request_hash !== requestHash) return { kind: 'reused' };
      if (existing.state === 'in_progress') return { kind: 'in_progress' };
      return {
        kind: 'replay',
        statusCode: existing.status_code ?? 200,
        body: existing.response_body ?? '',
        location: existing.location,
      };
    }
    return { kind: 'in_progress' };
  }

  /** Forgets an attempt that failed, so a retry with the same key is evaluated afresh. */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.whereScope(this.db.deleteFrom('idempotency_records'), scope)
      .where('state', '=', 'in_progress')
      .execute();
  }

  private async tryInsert(scope: IdempotencyScope, requestHash: string, now: number): Promise<boolean> {
    try {
      await this.writes.run((trx) =>
        insertInProgress(trx, { ...scope, requestHash, now, expiresAt: now + IDEMPOTENCY_RETENTION_MS }),
      );
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  private find(scope: IdempotencyScope) {
    return this.whereScope(this.db.selectFrom('idempotency_records').selectAll(), scope).executeTakeFirst();
  }

  /** The select or delete narrowed to one scope's record; `where` keeps the builder's own type. */
  private whereScope<Q extends WhereInterface<Database, 'idempotency_records'>>(query: Q, scope: IdempotencyScope): Q {
    return query
      .where('store_id', '=', scope.storeId)
      .where('application', '=', scope.application)
      .where('idem_key', '=', scope.key) as Q;
  }

  /** Housekeeping: drops records past retention. */
  async purgeExpired(): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_records')
      .where('expires_at', '<=', this.clock.now().getTime())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
