import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/*
 * Shared in-flight counter: one sorted set per API key, one member per held slot, scored with the
 * Redis server time at acquisition.
 *
 * Why not a plain INCR/DECR counter with a TTL: if a process crashes between INCR and DECR, the
 * leaked increments only vanish when the whole key expires, and every later INCR would refresh
 * that TTL, so under steady traffic leaked slots would never be given back. With one member per
 * slot, each entry expires on its own: members older than SLOT_TTL_MS no longer count (dropped
 * when the set is full, take_slot below).
 * A request legitimately running longer than that stops counting against the limit, which is
 * acceptable because request time-outs are far below one minute.
 *
 * Release is ZREM of that exact member, which removes at most once even if called repeatedly.
 * The server clock (TIME) is used so processes with skewed clocks still agree on ages.
 */
export const SLOT_TTL_MS = 60_000;

/**
 * Lua: `take_slot(key, max, member, ttl)` adds the member scored with the server time unless `max`
 * members are in flight; returns 1 (taken) or -1 (all in use). Members older than `ttl` (left by a
 * process that died holding them) are removed only when the set is full: below the limit they
 * would change no decision, so the common case costs one ZCARD instead of a range removal too.
 * The set lives `ttl` from its last slot taken. One source for both scripts that take a slot
 * (this file's and the admission's, redis-admit.ts).
 */
export const TAKE_SLOT_LUA = `
local function take_slot(key, max, member, ttl)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  if redis.call('ZCARD', key) >= max then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - ttl)
    if redis.call('ZCARD', key) >= max then
      return -1
    end
  end
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, ttl)
  return 1
end
`;

const ACQUIRE_SCRIPT = `${TAKE_SLOT_LUA}
return take_slot(KEYS[1], tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]))
`;

export function createRedisSlots(client: Redis, keyPrefix: string) {
  const setKey = (keyId: string): string => `${keyPrefix}inflight:${keyId}`;

  /** Returns the slot id when a slot was taken, or null when `max` are in flight. */
  async function acquire(keyId: string, max: number, slotId: string = randomUUID()): Promise<string | null> {
    const taken = await client.eval(ACQUIRE_SCRIPT, 1, setKey(keyId), String(max), slotId, String(SLOT_TTL_MS));
    return taken === 1 ? slotId : null;
  }

  /** Removes the given slots of one key (one command, whatever their number). */
  async function release(keyId: string, slotIds: readonly string[]): Promise<void> {
    await client.zrem(setKey(keyId), ...slotIds);
  }

  return { acquire, release, keyOf: setKey };
}
