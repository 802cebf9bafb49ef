export type { RateClass, RateDecision, TrafficControl, TrafficControlOptions } from './types.js';
export { createTrafficControl, DEFAULT_KEY_PREFIX } from './create-traffic-control.js';
export { TrafficBackendError, type TrafficOperation } from './backend-error.js';
export { WINDOW_SECONDS, decide } from './window.js';
export type { Admission, AdmitRequest } from './types.js';
export type { RedisConnection } from './redis-connection.js';
export {
  RedisHealth,
  REDIS_ERROR_KINDS,
  REDIS_WARNING_WINDOW_MS,
  redisErrorKind,
  type RedisErrorKind,
  type RecentRedisErrors,
} from './redis-health.js';
export { addressAdmission, tighterDecision } from './address-limit.js';
