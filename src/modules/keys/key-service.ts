import { Cache, NO_VERSIONS, versionsFromRow, type CacheVersions, type VersionSource } from '../../cache/index.js';
import { isUniqueViolation, type Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { safeEqual, sha256Hex } from '../../lib/crypto.js';
import { DAY_MS } from '../../lib/time.js';
import { storeFromRow, type Store } from '../stores/index.js';
import { EXPIRY_WARNING_DAYS } from './key-expiry.js';
import { generateKeyParts, parseApiKey } from './key-format.js';
import { deserializeScopes, expandScopes, serializeScopes, type Scope } from './scopes.js';
import {
  findKey,
  findKeyWithStore,
  findKeyWithStoreAndVersions,
  insertKey,
  listExpiringKeys,
  listKeys,
  revokeKey,
  updateKey,
  type KeyWithStore,
} from './key-repository.js';

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

export interface Authenticated {
  caller: Caller;
  /** The cache versions this request reads under (see src/cache). */
  versions: CacheVersions;
}

/** The verified keys cache's budget: about a kilobyte a key, so some 16,000 keys. */
export const CALLER_CACHE_BYTES = 16 * 1024 * 1024;
const CALLER_BYTES = 1024;

interface CachedCaller {
  secret: string;
  caller: Caller;
}

/** The secret is hashed once with SHA-256 (a 190-bit random secret needs no slow KDF). */
const hashSecret = (secret: string) => sha256Hex(secret);
/**
 * Compared with when the key id is unknown: a wrong secret and an unknown key id are refused
 * with the same work (a hash, a comparison, a query), so the time of a refusal does not tell
 * which key ids exist. Neither matches any secret: a hash is hex, a secret is 32 characters.
 */
const NO_SECRET_HASH = 'x'.repeat(64);
const NO_CACHED_SECRET = '-'.repeat(32);

/** Whether the cached entry holds `secret`, compared (in constant time) even when nothing is cached. */
const secretMatches = (cached: CachedCaller | undefined, secret: string) =>
  safeEqual(cached?.secret ?? NO_CACHED_SECRET, secret) && cached !== undefined;

export class KeyService {
  /**
   * Verified keys by key_id. Looking a key up and hashing its secret was most of a cheap read's
   * cost. An entry is served only under the `keys` version it was read under, so any change to
   * the key or its store (revocation, limits, gates, by any process) is seen by the next request.
   * Unknown keys and wrong secrets are never cached.
   */
  private readonly callers: Cache<string, CachedCaller> | null;

  /** `versions`: where cache versions come from (null: nothing is cached, every request reads the key). */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly versions: VersionSource | null = null,
    cacheBytes = CALLER_CACHE_BYTES,
  ) {
    this.callers = versions && cacheBytes > 0 ? new Cache(cacheBytes) : null;
  }

  /** Issues a key; the full key is in the result and is never stored or shown again. */
  async issue(
    input: IssueKeyInput,
  ): Promise<{ key: string; keyId: string; scopes: Scope[]; expiresAt: number | null }> {
    const now = this.clock.now().getTime();
    const expiresAt =
      input.expiresInDays === null ? null : now + (input.expiresInDays ?? KEY_DEFAULTS.lifetimeDays) * DAY_MS;
    // key_id is the primary key: on the (astronomically rare) collision, draw again.
    for (let attempt = 0; ; attempt++) {
      const parts = generateKeyParts();
      try {
        await insertKey(this.db, {
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
        });
        return { key: parts.key, keyId: parts.keyId, scopes: expandScopes(input.scopes), expiresAt };
      } catch (err) {
        // Anything else (a store that does not exist, a lost connection) is not luck: no retry.
        if (!isUniqueViolation(err) || attempt >= 3) throw err;
      }
    }
  }

  /**
   * Resolves a presented key to its caller, or null for any invalid key (unknown, wrong
   * secret, expired, revoked) so that every failure looks the same to the client; with the
   * cache versions the rest of the request reads under.
   *
   * At most one query: SQLite reads its versions in memory, so a cached key costs none; on
   * PostgreSQL a cached key costs the store's version row, and a key not cached one query for
   * the key, its store and the versions together. Either way the versions are read after the
   * change a finished command made, so revocation, expiry and limit changes by any process
   * apply on the very next request.
   *
   * `known`: the versions of the cached key's store, already read (PostgreSQL with Redis: in the
   * request's one Redis call, before this); then a cached key costs no query at all.
   */
  authenticate(
    rawKey: string,
    known: CacheVersions | null = null,
  ): Authenticated | null | Promise<Authenticated | null> {
    const parsed = parseApiKey(rawKey);
    if (!parsed) return null;
    const { keyId, secret } = parsed;
    const now = this.clock.now().getTime();
    const { callers, versions: source } = this;
    if (!callers || !source) return this.readKey(keyId, secret, NO_VERSIONS, now);
    // A cached key presented with another secret goes on like an unknown key id, with the same
    // work: no versions read for it (a query an unknown key id does not cost), then the key read.
    const peeked = callers.peek(keyId);
    const matches = secretMatches(peeked, secret);
    const cached = source.inProcess || !matches ? undefined : peeked;
    // SQLite's versions are in memory: a cached key is then answered in this turn, no promise.
    const versions =
      known && cached ? known : source.inProcess || cached ? source.read(cached?.caller.store.id ?? 0) : NO_VERSIONS;
    return versions instanceof Promise
      ? versions.then((read) => this.fromCache(keyId, secret, matches, read, now))
      : this.fromCache(keyId, secret, matches, versions, now);
  }

  /** The cached caller when it is current under `versions`; otherwise the key is read. */
  private fromCache(
    keyId: string,
    secret: string,
    matches: boolean,
    versions: CacheVersions,
    now: number,
  ): Authenticated | null | Promise<Authenticated | null> {
    const found = matches ? this.callers!.get(keyId, versions.keys, now) : undefined;
    if (found) return this.unexpired(found.caller, versions, now);
    return this.readKey(keyId, secret, versions, now);
  }

  /** Reads the key (and, on PostgreSQL, its store's versions), and caches a valid one. */
  private async readKey(
    keyId: string,
    secret: string,
    known: CacheVersions,
    now: number,
  ): Promise<Authenticated | null> {
    const { callers, versions: source } = this;
    const read = await this.readCaller(keyId, secret, source !== null && !source.inProcess);
    const caller = read.caller;
    const versions = read.versions ?? known;
    if (caller && callers) {
      callers.set(
        keyId,
        { secret, caller: freezeCaller(caller) },
        { version: versions.keys, now, until: caller.expiresAt ?? undefined, size: CALLER_BYTES },
      );
    }
    return caller ? this.unexpired(caller, versions, now) : null;
  }

  /** Expiry is compared with this process's clock on every request, cached or not. */
  private unexpired(caller: Caller, versions: CacheVersions, now: number): Authenticated | null {
    if (caller.expiresAt !== null && caller.expiresAt <= now) return null;
    return { caller, versions };
  }

  /**
   * The caller cached for this key under any version, when the secret matches: what the
   * request will most likely be admitted as, known before its versions are (they are then read
   * for this caller's store, together with its rate count, in one Redis call).
   */
  cachedCaller(rawKey: string): Caller | undefined {
    const parsed = parseApiKey(rawKey);
    if (!parsed) return undefined;
    const cached = this.callers?.peek(parsed.keyId);
    return secretMatches(cached, parsed.secret) ? cached?.caller : undefined;
  }

  private async readCaller(
    keyId: string,
    secret: string,
    withVersions: boolean,
  ): Promise<{ caller: Caller | null; versions?: CacheVersions }> {
    if (withVersions) {
      const row = await findKeyWithStoreAndVersions(this.db, keyId);
      return { caller: this.verify(row, secret), versions: versionsFromRow(row) };
    }
    const row = await findKeyWithStore(this.db, keyId);
    return { caller: this.verify(row, secret) };
  }

  /** The caller when `row` is a key whose secret is `secret`; hashes and compares even without a row. */
  private verify(row: KeyWithStore | undefined, secret: string): Caller | null {
    const matches = safeEqual(row?.secret_hash ?? NO_SECRET_HASH, hashSecret(secret));
    if (!row || !matches) return null;
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
    if (await revokeKey(this.db, keyId, now)) return true;
    return (await this.find(keyId)) !== null;
  }

  /** Changes a key; returns it as it is now, with its store's id, or null for an unknown key. */
  async update(
    keyId: string,
    changes: { expiresAt?: number | null; readPerMinute?: number; writePerMinute?: number; concurrency?: number },
  ): Promise<{ key: KeySummary; storeId: number } | null> {
    const patch: Record<string, number | null> = {};
    if (changes.expiresAt !== undefined) patch.expires_at = changes.expiresAt;
    if (changes.readPerMinute !== undefined) patch.read_per_minute = changes.readPerMinute;
    if (changes.writePerMinute !== undefined) patch.write_per_minute = changes.writePerMinute;
    if (changes.concurrency !== undefined) patch.concurrency = changes.concurrency;
    if (Object.keys(patch).length > 0) await updateKey(this.db, keyId, patch);
    const row = await findKey(this.db, keyId);
    return row ? { key: summarize(row), storeId: row.store_id } : null;
  }

  async find(keyId: string): Promise<KeySummary | null> {
    const row = await findKey(this.db, keyId);
    return row ? summarize(row) : null;
  }

  async listForStore(storeId: number): Promise<KeySummary[]> {
    const rows = await listKeys(this.db, storeId);
    return rows.map(summarize);
  }

  /** Active keys expiring within `days` of `now` (of one store, or of all), by store, then soonest first. */
  async listExpiring(
    now: number,
    days = EXPIRY_WARNING_DAYS,
    storeId?: number,
  ): Promise<Array<{ storeId: number; key: KeySummary }>> {
    const rows = await listExpiringKeys(this.db, now, now + days * DAY_MS, storeId);
    return rows.map((row) => ({ storeId: row.store_id, key: summarize(row) }));
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
    rate_limits: {
      read_per_minute: row.read_per_minute,
      write_per_minute: row.write_per_minute,
      concurrency: row.concurrency,
    },
  };
}

/** One Caller object serves many requests, so nothing may change it. */
function freezeCaller(caller: Caller): Caller {
  Object.freeze(caller.scopes);
  Object.freeze(caller.rateLimits);
  Object.freeze(caller.store.features);
  Object.freeze(caller.store.limits);
  Object.freeze(caller.store.quotas);
  Object.freeze(caller.store);
  return Object.freeze(caller);
}
