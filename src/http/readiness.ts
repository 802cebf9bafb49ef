// Readiness: should this process be sent traffic now? Only what it cannot serve without makes it
// unready (the database, shutdown); a dependency it works around (Redis: limits counted per
// process and versions read from PostgreSQL; the object store: only uploads and image files fail)
// shows under `degraded` and `warnings` with a ready answer. `strict` (GET /readyz?strict=1)
// gives the all-checks answer for operators. Each dependency is asked with a time bound, so a
// dependency that hangs answers "failed" instead of hanging the load balancer's probe.
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { within } from '../lib/deadline.js';

export type CheckName = 'database' | 'redis' | 'media' | 'shutdown';

export type CheckResult =
  | { status: 'ok' }
  | { status: 'failed'; reason: 'timed_out' | 'unavailable' | 'shutting_down' }
  | { status: 'not_configured' };

export interface Readiness {
  ready: boolean;
  checks: Partial<Record<CheckName, CheckResult>>;
  /** The failing checks that make this answer not ready, in a fixed order. */
  failing: CheckName[];
  /** The failing checks this process works around (not strict), in a fixed order. */
  degraded: CheckName[];
  /** Things an operator should know that do not make the process unready. */
  warnings: string[];
}

/** Said at start and by /readyz: without Redis each process keeps its own counters. */
export const PER_PROCESS_LIMITS_WARNING =
  'REDIS_URL is not set: rate, concurrency and in-flight limits are counted per process, so N processes allow N times the limits';

/** PostgreSQL is the engine for several processes; without Redis their limits are not shared. */
export const limitsArePerProcess = (ctx: AppContext): boolean =>
  ctx.engine === 'postgres' && ctx.traffic.backend !== 'redis';

/** Turns true once shutdown begins; /readyz then answers 503 at once. */
export class ShutdownFlag {
  private started = false;
  get shuttingDown(): boolean {
    return this.started;
  }
  begin(): void {
    this.started = true;
  }
}

/** Dependencies the process serves without: their failure is a warning unless the answer is strict. */
const WORKED_AROUND: ReadonlySet<CheckName> = new Set(['redis', 'media']);

export const DEGRADED_WARNINGS: Partial<Record<CheckName, string>> = {
  redis:
    'redis: unavailable; rate and in-flight limits are counted by each process alone, and cache versions are read from PostgreSQL',
  media: 'media: the object store is unavailable; uploads and image files fail, everything else is served',
};

export interface ReadinessOptions {
  /** The all-checks answer: any failing dependency makes it not ready. */
  strict?: boolean;
}

export async function checkReadiness(
  ctx: AppContext,
  shutdown: ShutdownFlag,
  onFailure: (name: CheckName, err: unknown) => void,
  options: ReadinessOptions = {},
): Promise<Readiness> {
  const warnings = limitsArePerProcess(ctx) ? [PER_PROCESS_LIMITS_WARNING] : [];
  if (shutdown.shuttingDown) {
    return {
      ready: false,
      checks: { shutdown: { status: 'failed', reason: 'shutting_down' } },
      failing: ['shutdown'],
      degraded: [],
      warnings,
    };
  }
  const timeoutMs = ctx.config.ops.healthCheckTimeoutMs;
  const run = async (name: CheckName, probe: () => Promise<unknown>): Promise<[CheckName, CheckResult]> => {
    try {
      await within(probe(), timeoutMs, () => new CheckTimeout(timeoutMs));
      return [name, { status: 'ok' }];
    } catch (err) {
      onFailure(name, err);
      return [name, { status: 'failed', reason: err instanceof CheckTimeout ? 'timed_out' : 'unavailable' }];
    }
  };
  const results = await Promise.all([
    // On a connection of its own: a pool busy with requests is not the database failing.
    run('database', () => ctx.checkDatabase()),
    ctx.traffic.backend === 'redis'
      ? run('redis', () => ctx.traffic.check())
      : (['redis', { status: 'not_configured' }] as [CheckName, CheckResult]),
    run('media', () => ctx.media.files.check()),
  ]);
  const failed = results.filter(([, r]) => r.status === 'failed').map(([name]) => name);
  const degraded = options.strict ? [] : failed.filter((name) => WORKED_AROUND.has(name));
  const failing = failed.filter((name) => !degraded.includes(name));
  for (const name of degraded) warnings.push(DEGRADED_WARNINGS[name]!);
  warnings.push(...breakerWarnings(ctx), ...databaseWarnings(ctx), ...redisWarnings(ctx));
  const redis = ctx.traffic.redis;
  if (redis && !failed.includes('redis')) {
    const settings = await within(redisSettingsWarning(redis.client), timeoutMs, 'no answer').catch(() => null);
    if (settings) warnings.push(settings);
  }
  return { ready: failing.length === 0, checks: Object.fromEntries(results), failing, degraded, warnings };
}

/** A dependency whose breaker is open: this process is not waiting on it (docs/operations.md, "Gray failures"). */
function breakerWarnings(ctx: AppContext): string[] {
  return ctx.breakers
    .filter((breaker) => breaker.isOpen)
    .map((breaker) =>
      breaker.name === 'redis'
        ? 'redis: circuit open (commands timed out): not waiting on Redis until it answers a probe; limits are counted by each process alone and cache versions are read from PostgreSQL'
        : 'database: circuit open (statements timed out): requests answer 503 service_unavailable at once until PostgreSQL answers a probe',
    );
}

/** Failures of the link to PostgreSQL in the last minute, by kind. */
function databaseWarnings(ctx: AppContext): string[] {
  return (ctx.databaseHealth?.recent() ?? []).map(
    ({ kind, count }) => `database: ${count} ${kind} error${count === 1 ? '' : 's'} in the last minute`,
  );
}

/** Redis errors of the last minute by kind, and copies of cache versions not yet checked since Redis came back. */
function redisWarnings(ctx: AppContext): string[] {
  const out: string[] = [];
  for (const { kind, count } of ctx.redisHealth?.recent() ?? []) {
    out.push(
      `redis: ${count} ${kind} error${count === 1 ? '' : 's'} in the last minute; meanwhile limits are counted by each process alone and cache versions are read from PostgreSQL`,
    );
  }
  if (ctx.sharedVersions && !ctx.sharedVersions.isTrusted) {
    out.push(
      'redis: the cache versions kept in Redis are not yet checked against PostgreSQL since Redis came back; reads use PostgreSQL until then',
    );
  }
  return out;
}

/**
 * The fleet needs Redis to keep its keys: with maxmemory and an evicting policy, rate counters
 * and in-flight sets can be evicted, and the limits then undercount without any error
 * (docs/deployment.md, "Redis").
 */
export async function redisSettingsWarning(client: Redis): Promise<string | null> {
  const info = await client.info('memory');
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const policy = field('maxmemory_policy');
  const maxmemory = Number(field('maxmemory') ?? 0);
  if (!policy || maxmemory === 0 || policy === 'noeviction') return null;
  return `redis: maxmemory-policy is ${policy}: rate counters and in-flight sets can be evicted, and the limits then undercount; set maxmemory-policy noeviction`;
}

class CheckTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}
