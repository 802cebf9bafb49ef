import { queryTemplate, type Db, type TableWatch } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { safeEqual, sha256Hex } from '../../lib/crypto.js';
import { DAY_MS } from '../../lib/time.js';
import { storeFromRow, type Store } from '../stores/index.js';
import { CallerCache } from './caller-cache.js';
import { generateKeyParts, parseApiKey } from './key-format.js';
import { deserializeScopes, expandScopes, serializeScopes, type Scope } from './scopes.js';

export const KEY_DEFAULTS = {
  lifetimeDays: 365,
  readPerMinute: 600,
  writePerMinute: 120,
  concurrency: 8,
} as const;

export interface RateLimits {
  readPerMinute: number;
  writePerMinute: number;
  concurrency: number;
}

/** Who is calling: a valid key, its application, its store and its allowances. */
export interface Caller {
  keyId: string;
  application: string;
  scopes: Scope[];
  expiresAt: number | null;
  rateLimits: RateLimits;
  store: Store;
}

export interface IssueKeyInput {
  storeId: number;
  application: string;
  scopes: Scope[];
  /** null = no expiry; undefined = the default lifetime. */
  expiresInDays?: number | null;
  readPerMinute?: number;
  writePerMinute?: number;
  concurrency?: number;
}

export interface KeySummary {
  key_id: string;
  application: string;
  scopes: Scope[];
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  rate_limits: { read_per_minute: number; write_per_minute: number; concurrency: number };
}

/** The key and its store in one query, compiled once (it runs on every request). */
const keyWithStore = queryTemplate((db, $) =>
  db
    .selectFrom('api_keys')
    .innerJoin('stores', 'stores.id', 'api_keys.store_id')
    .selectAll('stores')
    .select([
      'api_keys.key_id',
      'api_keys.application',
      'api_keys.secret_hash',
      'api_keys.scopes',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.read_per_minute',
      'api_keys.write_per_minute',
      'api_keys.concurrency',
    ])
    .where('api_keys.key_id', '=', $(0)),
);

/** The secret is hashed once with SHA-256 (a 190-bit random secret needs no slow KDF). */
const hashSecret = (secret: string) => sha256Hex(secret);

export class KeyService {
  private readonly callers: CallerCache | null;

  /** `callerTables`: a watch of CALLER_TABLES, to keep verified keys (null: read every time). */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    callerTables: TableWatch | null = null,
  ) {
    this.callers = callerTables && new CallerCache(callerTables);
  }

  /** Issues a key; the full key is in the result and is never stored or shown again. */
  async issue(input: IssueKeyInput): Promise<{ key: string; keyId: string; scopes: Scope[]; expiresAt: number | null }> {
    const now = this.clock.now().getTime();
    const expiresAt =
      input.expiresInDays === null ? null : now + (input.expiresInDays ?? KEY_DEFAULTS.lifetimeDays) * DAY_MS;
    // key_id is the primary key: on the (astronomically rare) collision, draw again.
    for (let attempt = 0; ; attempt++) {
      const parts = generateKeyParts();
      try {
        await this.db
          .insertInto('api_keys')
          .values({
            key_id: parts.keyId,
            store_id: input.storeId,
            application: input.application,
            secret_hash: hashSecret(parts.secret),
            scopes: serializeScopes(input.scopes),
            expires_at: expiresAt,
            revoked_at: null,
            read_per_minute: input.readPerMinute ?? KEY_DEFAULTS.readPerMinute,
            write_per_minute: input.writePerMinute ?? KEY_DEFAULTS.writePerMinute,
            concurrency: input.concurrency ?? KEY_DEFAULTS.concurrency,
            created_at: now,
          })
          .execute();
        return { key: parts.key, keyId: parts.keyId, scopes: expandScopes(input.scopes), expiresAt };
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  }

  /**
   * Resolves a presented key to its caller, or null for any invalid key (unknown, wrong
   * secret, expired, revoked) so that every failure looks the same to the client.
   * Revocation and limit changes apply on the very next request: a kept caller is dropped as
   * soon as its tables may have changed (see CallerCache), and otherwise the database is read.
   */
  async authenticate(rawKey: string): Promise<Caller | null> {
    const parsed = parseApiKey(rawKey);
    if (!parsed) return null;
    const now = this.clock.now().getTime();
    const callers = this.callers;
    const stamp = callers ? callers.begin() : null;
    const kept = callers?.find(stamp, parsed.keyId, parsed.secret, now);
    const caller = kept ?? (await this.readCaller(parsed.keyId, parsed.secret));
    if (!caller) return null;
    // Expiry is compared with this process's clock on every request, kept or not.
    if (caller.expiresAt !== null && caller.expiresAt <= now) return null;
    if (!kept) callers?.keep(stamp, parsed.keyId, parsed.secret, caller, now);
    return caller;
  }

  private async readCaller(keyId: string, secret: string): Promise<Caller | null> {
    const [row] = await keyWithStore(this.db, [keyId]);
    if (!row) return null;
    if (!safeEqual(row.secret_hash, hashSecret(secret))) return null;
    // Revocation is unconditional (its timestamp is only a record, possibly from another
    // process's clock).
    if (row.revoked_at !== null) return null;
    return {
      keyId: row.key_id,
      application: row.application,
      scopes: expandScopes(deserializeScopes(row.scopes)),
      expiresAt: row.expires_at,
      rateLimits: {
        readPerMinute: row.read_per_minute,
        writePerMinute: row.write_per_minute,
        concurrency: row.concurrency,
      },
      store: storeFromRow(row),
    };
  }

  async revoke(keyId: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('key_id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return true;
    return (await this.find(keyId)) !== null;
  }

  async update(
    keyId: string,
    changes: { expiresAt?: number | null; readPerMinute?: number; writePerMinute?: number; concurrency?: number },
  ): Promise<KeySummary | null> {
    const patch: Record<string, number | null> = {};
    if (changes.expiresAt !== undefined) patch.expires_at = changes.expiresAt;
    if (changes.readPerMinute !== undefined) patch.read_per_minute = changes.readPerMinute;
    if (changes.writePerMinute !== undefined) patch.write_per_minute = changes.writePerMinute;
    if (changes.concurrency !== undefined) patch.concurrency = changes.concurrency;
    if (Object.keys(patch).length > 0) await this.db.updateTable('api_keys').set(patch).where('key_id', '=', keyId).execute();
    return this.find(keyId);
  }

  async find(keyId: string): Promise<KeySummary | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
    return row ? summarize(row) : null;
  }

  async listForStore(storeId: number): Promise<KeySummary[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('store_id', '=', storeId).orderBy('created_at').orderBy('key_id').execute();
    return rows.map(summarize);
  }
}

function summarize(row: {
  key_id: string;
  application: string;
  scopes: string;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  read_per_minute: number;
  write_per_minute: number;
  concurrency: number;
}): KeySummary {
  return {
    key_id: row.key_id,
    application: row.application,
    scopes: expandScopes(deserializeScopes(row.scopes)),
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
    rate_limits: { read_per_minute: row.read_per_minute, write_per_minute: row.write_per_minute, concurrency: row.concurrency },
  };
}
