import type { Db } from './database.js';
import { isUniqueViolation } from './database.js';
import { randomToken } from '../lib/crypto.js';

/**
 * A per-deployment secret kept in the database (so every instance sharing the database signs
 * cursors alike). Created on first use; a concurrent first use by another process wins the race.
 */
export async function loadServiceSecret(db: Db, name: string): Promise<string> {
  const existing = await db.selectFrom('service_settings').select('value').where('name', '=', name).executeTakeFirst();
  if (existing) return existing.value;
  try {
    await db
      .insertInto('service_settings')
      .values({ name, value: randomToken(32) })
      .execute();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** A service setting if it exists, without creating it. */
export async function readServiceSetting(db: Db, name: string): Promise<string | null> {
  const row = await db.selectFrom('service_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value ?? null;
}
