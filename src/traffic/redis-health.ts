// What Redis has been failing with, for the operator: every error of every Redis user in the
// process (limits, cache versions) is sorted into a kind, counted (the metric
// blog_api_redis_errors_total), shown by /readyz under `warnings` while recent, and logged at
// most once per interval per kind (src/lib/dependency-health.ts). See docs/operations.md, "Redis".
import type { Clock } from '../lib/clock.js';
import {
  DEPENDENCY_WARNING_WINDOW_MS,
  DependencyHealth,
  type ErrorLogEntry,
  type RecentErrors,
} from '../lib/dependency-health.js';

export const REDIS_ERROR_KINDS = ['out_of_memory', 'read_only', 'timeout', 'unreachable', 'other'] as const;
export type RedisErrorKind = (typeof REDIS_ERROR_KINDS)[number];

export const REDIS_WARNING_WINDOW_MS = DEPENDENCY_WARNING_WINDOW_MS;

const KIND_PATTERNS: Array<[RedisErrorKind, RegExp]> = [
  ['out_of_memory', /\bOOM\b|maxmemory/i],
  ['read_only', /\bREADONLY\b|read only replica/i],
  ['timeout', /timed? ?out/i],
  [
    'unreachable',
    /ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EHOSTUNREACH|Connection is closed|Stream isn't writeable|enableOfflineQueue|connect|LOADING|MASTERDOWN/i,
  ],
];

/** The kind of a Redis failure, read from its message and the messages of its causes. */
export function redisErrorKind(err: unknown): RedisErrorKind {
  const messages: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth += 1) {
    messages.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  // The innermost cause is Redis's own words; the wrappers only say what was being done.
  for (const message of messages.reverse()) {
    for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(message)) return kind;
  }
  return 'other';
}

export type RedisErrorLogEntry = ErrorLogEntry<RedisErrorKind>;
export type RecentRedisErrors = RecentErrors<RedisErrorKind>;

export class RedisHealth extends DependencyHealth<RedisErrorKind> {
  constructor(clock: Clock, windowMs = REDIS_WARNING_WINDOW_MS) {
    super(clock, REDIS_ERROR_KINDS, redisErrorKind, windowMs);
  }
}
