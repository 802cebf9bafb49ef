// Daily quotas on the Taipei calendar day (contract, Limits). A quota counts successful
// creations only: consume() runs inside the creating transaction, so a rolled-back
// creation gives its unit back, and the conditional UPDATE serialises concurrent creators.
import { writeTemplate, type Db } from '../../db/database.js';
import { formatWithOffset, nextTaipeiMidnight, taipeiDay, TAIPEI_OFFSET } from '../../lib/time.js';
import { ApiError } from '../../lib/api-error.js';

export type QuotaKind = 'posts' | 'images';

export interface QuotaUsage {
  limit: number;
  used: number;
  remaining: number;
  resets_at: string;
}

export async function readUsage(db: Db, storeId: number, kind: QuotaKind, limit: number, nowMs: number): Promise<QuotaUsage> {
  const row = await db
    .selectFrom('daily_usage')
    .select('used')
    .where('store_id', '=', storeId)
    .where('kind', '=', kind)
    .where('day', '=', taipeiDay(nowMs))
    .executeTakeFirst();
  const used = row?.used ?? 0;
  return { limit, used, remaining: Math.max(0, limit - used), resets_at: formatWithOffset(nextTaipeiMidnight(nowMs), TAIPEI_OFFSET) };
}

// Every creation runs both, so they are compiled once (see queryTemplate).
const ensureDayRow = writeTemplate((db, $) =>
  db
    .insertInto('daily_usage')
    .values({ store_id: $(0), kind: $(1), day: $(2), used: 0 })
    .onConflict((oc) => oc.columns(['store_id', 'kind', 'day']).doNothing()),
);
const takeUnit = writeTemplate((db, $) =>
  db
    .updateTable('daily_usage')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .where('store_id', '=', $(0))
    .where('kind', '=', $(1))
    .where('day', '=', $(2))
    .where('used', '<', $(3)),
);

/** Takes one unit of today's quota in the given transaction, or throws 429 quota_exceeded. */
export async function consumeQuota(trx: Db, storeId: number, kind: QuotaKind, limit: number, nowMs: number): Promise<void> {
  const day = taipeiDay(nowMs);
  await ensureDayRow(trx, [storeId, kind, day]);
  const taken = await takeUnit(trx, [storeId, kind, day, limit]);
  if (taken === 0) {
    const retryAfter = Math.max(1, Math.ceil((nextTaipeiMidnight(nowMs) - nowMs) / 1000));
    throw new ApiError('quota_exceeded', [{ field: kind === 'posts' ? 'quotas.posts_per_day' : 'quotas.images_per_day', issue: `daily limit of ${limit} reached` }], {
      'Retry-After': String(retryAfter),
    });
  }
}
