// Plain data access for the daily quotas' counters; takes `db` or a transaction. The unit's
// conditional upsert stays in quota-service.ts beside the rule it is (takeUnitSql).
import type { Db } from '../../db/database.js';
import { queryTemplate } from '../../db/query-template.js';

// Every uncached identity request runs it, so it is compiled once (see queryTemplate).
const usageOfDay = queryTemplate((db, $: { storeId: number; day: string }) =>
  db
    .selectFrom('daily_usage')
    .select(['kind', 'used'])
    .where('store_id', '=', $.storeId)
    .where('day', '=', $.day)
    .where('kind', 'in', ['posts', 'images']),
);

/** The store's use of both daily quotas on `day` (a Taipei day), in one query: a row per kind used. */
export async function dailyUsage(db: Db, storeId: number, day: string): Promise<Array<{ kind: string; used: number }>> {
  return usageOfDay(db, { storeId, day });
}
