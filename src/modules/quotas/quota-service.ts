// Daily quotas on the Taipei calendar day (docs/api-behaviour.md, "Quotas and limits"). A quota counts successful
// creations only: consumeQuota() runs inside the creating transaction, so a rolled-back
// creation gives its unit back, and its conditional upsert serialises concurrent creators.
import type { Db } from '../../db/database.js';
import { writeTemplate } from '../../db/query-template.js';
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
 * its count goes up by 1 while it is below the limit. Zero rows changed means the quota is
 * used up. Compiled once (see queryTemplate): every creation runs it.
 */
const takeUnit = writeTemplate((db, $: { storeId: number; kind: QuotaKind; day: string; limit: number }) =>
  db
    .insertInto('daily_usage')
    .columns(['store_id', 'kind', 'day', 'used'])
    .expression(
      db
        .selectNoFrom((eb) => [eb.val($.storeId).as('store_id'), eb.val($.kind).as('kind'), eb.val($.day).as('day'), eb.lit(1).as('used')])
        .where((eb) => eb(eb.val($.limit), '>', 0)),
    )
    .onConflict((oc) =>
      oc
        .columns(['store_id', 'kind', 'day'])
        .doUpdateSet((eb) => ({ used: eb('daily_usage.used', '+', 1) }))
        .where('daily_usage.used', '<', $.limit),
    ),
);

/** Takes one unit of today's quota in the given transaction, or throws 429 quota_exceeded. */
export async function consumeQuota(trx: Db, storeId: number, kind: QuotaKind, limit: number, nowMs: number): Promise<void> {
  const taken = await takeUnit(trx, { storeId, kind, day: taipeiDay(nowMs), limit });
  if (taken === 0) throw quotaExceeded(kind, limit, nowMs);
}

/** 429 quota_exceeded, retryable at the next Taipei midnight. */
export function quotaExceeded(kind: QuotaKind, limit: number, nowMs: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((nextTaipeiMidnight(nowMs) - nowMs) / 1000));
  return new ApiError('quota_exceeded', [{ field: kind === 'posts' ? 'quotas.posts_per_day' : 'quotas.images_per_day', issue: `daily limit of ${limit} reached` }], {
    'Retry-After': String(retryAfter),
  });
}
