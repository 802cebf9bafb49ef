// Plain data access for API keys; takes `db` or a transaction. No rules here: verification,
// expiry and caching are the service's.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { VERSION_COLUMNS } from '../../cache/index.js';
import type { Db } from '../../db/database.js';
import { queryTemplate } from '../../db/query-template.js';
import type { ApiKeysTable } from '../../db/schema.js';

export type KeyRow = Selectable<ApiKeysTable>;

const KEY_COLUMNS = [
  'api_keys.key_id',
  'api_keys.application',
  'api_keys.secret_hash',
  'api_keys.scopes',
  'api_keys.expires_at',
  'api_keys.revoked_at',
  'api_keys.read_per_minute',
  'api_keys.write_per_minute',
  'api_keys.concurrency',
] as const;

/** The key and its store in one query, compiled once (it runs on every request not cached). */
const keyWithStore = queryTemplate((db, $: { keyId: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('stores', 'stores.id', 'api_keys.store_id')
    .selectAll('stores')
    .select(KEY_COLUMNS)
    .where('api_keys.key_id', '=', $.keyId),
);

/** PostgreSQL: the same with the store's cache versions, read in the same snapshot. */
const keyWithStoreAndVersions = queryTemplate((db, $: { keyId: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('stores', 'stores.id', 'api_keys.store_id')
    .leftJoin('cache_versions', 'cache_versions.store_id', 'api_keys.store_id')
    .selectAll('stores')
    .select(KEY_COLUMNS)
    .select(VERSION_COLUMNS.map((column) => `cache_versions.${column}` as const))
    .where('api_keys.key_id', '=', $.keyId),
);

/** A key's columns (but its store id and creation time) with its store's row. */
export type KeyWithStore = Awaited<ReturnType<typeof keyWithStore>>[number];
export type KeyWithStoreAndVersions = Awaited<ReturnType<typeof keyWithStoreAndVersions>>[number];

export async function findKeyWithStore(db: Db, keyId: string): Promise<KeyWithStore | undefined> {
  const [row] = await keyWithStore(db, { keyId });
  return row;
}

/** findKeyWithStore with the store's cache versions (null when the store has no version row). */
export async function findKeyWithStoreAndVersions(db: Db, keyId: string): Promise<KeyWithStoreAndVersions | undefined> {
  const [row] = await keyWithStoreAndVersions(db, { keyId });
  return row;
}

/** Inserts a key; fails on the primary key when its key_id is taken. */
export async function insertKey(db: Db, row: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** Revokes the key unless it already is; whether this call revoked it. */
export async function revokeKey(db: Db, keyId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('key_id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateKey(db: Db, keyId: string, change: Updateable<ApiKeysTable>): Promise<void> {
  await db.updateTable('api_keys').set(change).where('key_id', '=', keyId).execute();
}

export function findKey(db: Db, keyId: string): Promise<KeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
}

export function listKeys(db: Db, storeId: number): Promise<KeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('store_id', '=', storeId)
    .orderBy('created_at')
    .orderBy('key_id')
    .execute();
}

/** Active (unrevoked, not yet expired at `now`) keys whose expiry is at or before `until`, of one store or of all. */
function expiringKeys(db: Db, now: number, until: number, storeId?: number) {
  let query = db
    .selectFrom('api_keys')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', until);
  if (storeId !== undefined) query = query.where('store_id', '=', storeId);
  return query;
}

/** The keys expiringKeys finds, by store, then soonest first. */
export async function listExpiringKeys(db: Db, now: number, until: number, storeId?: number): Promise<KeyRow[]> {
  return expiringKeys(db, now, until, storeId)
    .selectAll()
    .orderBy('store_id')
    .orderBy('expires_at')
    .orderBy('key_id')
    .execute();
}

/** How many keys of all stores expiringKeys finds. */
export async function countExpiringKeys(db: Db, now: number, until: number): Promise<number> {
  const row = await expiringKeys(db, now, until)
    .select((eb) => eb.fn.countAll().as('keys'))
    .executeTakeFirstOrThrow();
  return Number(row.keys);
}
