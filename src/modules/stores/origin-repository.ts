import type { Db } from '../../db/database.js';

/** Every origin some store allows (the column as stored, comma-separated, one row a store). */
export async function selectAllowedOrigins(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('stores')
    .select('allowed_origins')
    .where('allowed_origins', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.allowed_origins ? row.allowed_origins.split(',') : []));
}
