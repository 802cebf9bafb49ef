import type { Redis } from 'ioredis';
import { luaStrings, REDIS_HASH_FIELDS } from '../cache/topics.js';
import { SLOT_TTL_MS, TAKE_SLOT_LUA } from './redis-slots.js';
import { WINDOW_SECONDS } from './window.js';

/*
 * One request's admission in one script, so a request costs one Redis round trip: the rate
 * count (a counter key per key and class that lives one window from its first request: the
 * first INCR gives it its expiry, so the usual request costs an INCR and a PTTL), the in-flight
 * slot when the count allows it (redis-slots.ts's take_slot), and optionally a hash read in the same
 * call (a store's cache versions, the fields REDIS_HASH_FIELDS of src/cache/topics.ts). ioredis
 * sends it with EVALSHA and loads it again after a NOSCRIPT (a restarted or flushed Redis).
 *
 * It also removes, first, the key's slots given back since the last command (release-batch.ts),
 * so a release costs no command of its own when an admission of its key follows in the same turn.
 *
 * KEYS: rate counter, in-flight set, hash (or the empty string), marker (or the empty string)
 * ARGV: window seconds, limit, max in flight, slot id ('' = take no slot), slot TTL ms,
 *       then the slot ids to release (any number, up to release-batch.ts's MAX_CARRIED)
 * Returns {consumed, ms until the window ends, slot (1 taken, 0 none asked or allowed, -1 all in use), fields or false, marker or false}
 */
const ADMIT_SCRIPT = `${TAKE_SLOT_LUA}
if #ARGV > 5 then
  redis.call('ZREM', KEYS[2], unpack(ARGV, 6))
end
local consumed = redis.call('INCR', KEYS[1])
local ttl = -1
if consumed > 1 then
  ttl = redis.call('PTTL', KEYS[1])
end
if ttl == -1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = 1000 * tonumber(ARGV[1])
end
local slot = 0
if ARGV[4] ~= '' and consumed <= tonumber(ARGV[2]) then
  slot = take_slot(KEYS[2], tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]))
end
local fields = false
if KEYS[3] ~= '' then
  fields = redis.call('HMGET', KEYS[3], ${luaStrings(REDIS_HASH_FIELDS)})
end
local marker = false
if KEYS[4] ~= '' then
  marker = redis.call('GET', KEYS[4])
end
return {consumed, ttl, slot, fields, marker}
`;

export interface AdmitReply {
  consumed: number;
  msUntilReset: number;
  /** The slot id when one was taken; null: none asked for or the rate refused; false: all in use. */
  slotId: string | null | false;
  hash: Array<string | null> | null;
  marker: string | null;
}

type AdmitCommand = (
  rateKey: string,
  slotKey: string,
  hashKey: string,
  markerKey: string,
  ...args: string[]
) => Promise<[number, number, number, Array<string | null> | null, string | null]>;

export function createRedisAdmit(client: Redis, keyPrefix: string) {
  if (!(client as unknown as { blogAdmit?: AdmitCommand }).blogAdmit)
    client.defineCommand('blogAdmit', { numberOfKeys: 4, lua: ADMIT_SCRIPT });
  const command = (client as unknown as { blogAdmit: AdmitCommand }).blogAdmit.bind(client);

  return async function admit(
    rateKey: string,
    keyId: string,
    limit: number,
    max: number,
    /** The slot's id when one is to be taken (the caller keeps it, to release it whatever happens), else ''. */
    slotId: string,
    hashKey: string | undefined,
    markerKey: string | undefined,
    /** Slots of this key given back, removed before anything is counted. */
    releases: readonly string[] = [],
  ): Promise<AdmitReply> {
    const [consumed, ttl, slot, hash, marker] = await command(
      // Kept as earlier releases named it, so counts survive a rolling upgrade.
      `${keyPrefix}rate:${rateKey}`,
      `${keyPrefix}inflight:${keyId}`,
      hashKey ?? '',
      markerKey ?? '',
      String(WINDOW_SECONDS),
      String(limit),
      String(max),
      slotId,
      String(SLOT_TTL_MS),
      ...releases,
    );
    return {
      consumed,
      msUntilReset: ttl >= 0 ? ttl : WINDOW_SECONDS * 1000,
      slotId: slot === 1 ? slotId : slot === -1 ? false : null,
      hash: hash ?? null,
      marker: typeof marker === 'string' ? marker : null,
    };
  };
}
