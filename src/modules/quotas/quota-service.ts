// Daily quotas on the Taipei calendar day (docs/api-behaviour.md, "Quotas and limits"). A quota counts successful
// creations only: consumeQuota() runs inside the creating transaction, so a rolled-back
// creation gives its unit back, and its conditional upsert serialises concurrent creators.
import type { Db } from '../../db/database.js';
import { sql, type RawBuilder } from 'kysely';
import { queryTemplate, raw } from '../../db/query-template.js';
import { nextTaipeiMidnight, taipeiDay } from '../../lib/time.js';
import { ApiError } from '../../lib/api-error.js';

export type QuotaKind = 'posts' | 'images';

export interface QuotaUsage {
  limit: number;
  used: number;
  remaining: number;
  resets_at: string;
}

/**
 * One statement takes a unit: the day's row is created holding 1 (unless the limit is 0), or
 * its count goes up by 1 while it is below the limit. No row returned means the quota is used
 * up. The same SQL runs on its own (consumeQuota) and inside a post's one-statement create on
 * PostgreSQL (create-statement.ts).
 */
export function takeUnitSql($: {
  storeId: number;
  kind: QuotaKind;
  day: string;
  limit: number;
}): RawBuilder<{ taken: number }> {
  return sql<{ taken: number }>`INSERT INTO daily_usage AS u (store_id, kind, day, used)
    SELECT CAST(${$.storeId} AS bigint), CAST(${$.kind} AS text), CAST(${$.day} AS text), 1 WHERE CAST(${$.limit} AS integer) > 0
    ON CONFLICT (store_id, kind, day) DO UPDATE SET used = u.used + 1 WHERE u.used < CAST(${$.limit} AS integer)
    RETURNING 1 AS taken`;
}

// Every creation runs it, so it is compiled once (see queryTemplate).
const takeUnit = queryTemplate((db, $: { storeId: number; kind: QuotaKind; day: string; limit: number }) =>
  raw(db, takeUnitSql($)),
);

/** Takes one unit of the day's quota in the given transaction; false when it is used up. */
export async function takeQuotaUnit(
  trx: Db,
  unit: { storeId: number; kind: QuotaKind; day: string; limit: number },
): Promise<boolean> {
  return (await takeUnit(trx, unit)).length > 0;
}

/** Takes one unit of today's quota in the given transaction, or throws 429 quota_exceeded. */
export async function consumeQuota(
  trx: Db,
  storeId: number,
  kind: QuotaKind,
  limit: number,
  nowMs: number,
): Promise<void> {
  if (!(await takeQuotaUnit(trx, { storeId, kind, day: taipeiDay(nowMs), limit })))
    throw quotaExceeded(kind, limit, nowMs);
}

/** 429 quota_exceeded, retryable at the next Taipei midnight. */
export function quotaExceeded(kind: QuotaKind, limit: number, nowMs: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((nextTaipeiMidnight(nowMs) - nowMs) / 1000));
  return new ApiError(
    'quota_exceeded',
    [
      {
        field: kind === 'posts' ? 'quotas.posts_per_day' : 'quotas.images_per_day',
        issue: `daily limit of ${limit} reached`,
      },
    ],
    {
      'Retry-After': String(retryAfter),
    },
  );
}
