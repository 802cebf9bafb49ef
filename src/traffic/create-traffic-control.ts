import { createReporter } from './backend-error.js';
import { createMemoryTrafficControl } from './memory-backend.js';
import { createRedisTrafficControl } from './redis-backend.js';
import type { TrafficControl, TrafficControlOptions } from './types.js';

export const DEFAULT_KEY_PREFIX = 'blogapi:';

/**
 * Picks the backend: Redis when `redisUrl` is set (limits shared across processes),
 * otherwise in-process memory driven by the injected clock.
 */
export function createTrafficControl(opts: TrafficControlOptions): TrafficControl {
  const redisUrl = opts.redisUrl?.trim();
  if (!redisUrl) return createMemoryTrafficControl(opts.clock);
  return createRedisTrafficControl({
    redisUrl,
    clock: opts.clock,
    keyPrefix: opts.keyPrefix ?? DEFAULT_KEY_PREFIX,
    report: createReporter(opts.onBackendError),
  });
}
