// Readiness: can this process serve requests now? Each dependency is asked with a time bound, so
// a dependency that hangs answers "failed" instead of hanging the load balancer's probe.
import { sql } from 'kysely';
import type { AppContext } from '../context.js';

export type CheckName = 'database' | 'redis' | 'media' | 'shutdown';

export type CheckResult =
  | { status: 'ok' }
  | { status: 'failed'; reason: 'timed_out' | 'unavailable' | 'shutting_down' }
  | { status: 'not_configured' };

export interface Readiness {
  ready: boolean;
  checks: Partial<Record<CheckName, CheckResult>>;
  /** Names of the failing checks, in a fixed order. */
  failing: CheckName[];
  /** Things an operator should know that do not make the process unready. */
  warnings: string[];
}

/** Said at start and by /readyz: without Redis each process keeps its own counters. */
export const PER_PROCESS_LIMITS_WARNING =
  'REDIS_URL is not set: rate, concurrency and in-flight limits are counted per process, so N processes allow N times the limits';

/** PostgreSQL is the engine for several processes; without Redis their limits are not shared. */
export const limitsArePerProcess = (ctx: AppContext): boolean => ctx.engine === 'postgres' && ctx.traffic.backend !== 'redis';

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

export async function checkReadiness(ctx: AppContext, shutdown: ShutdownFlag, onFailure: (name: CheckName, err: unknown) => void): Promise<Readiness> {
  const warnings = limitsArePerProcess(ctx) ? [PER_PROCESS_LIMITS_WARNING] : [];
  if (shutdown.shuttingDown) {
    return { ready: false, checks: { shutdown: { status: 'failed', reason: 'shutting_down' } }, failing: ['shutdown'], warnings };
  }
  const timeoutMs = ctx.config.ops.healthCheckTimeoutMs;
  const run = async (name: CheckName, probe: () => Promise<unknown>): Promise<[CheckName, CheckResult]> => {
    try {
      await bounded(probe(), timeoutMs);
      return [name, { status: 'ok' }];
    } catch (err) {
      onFailure(name, err);
      return [name, { status: 'failed', reason: err instanceof CheckTimeout ? 'timed_out' : 'unavailable' }];
    }
  };
  const results = await Promise.all([
    run('database', () => sql`select 1`.execute(ctx.db)),
    ctx.traffic.backend === 'redis' ? run('redis', () => ctx.traffic.check()) : (['redis', { status: 'not_configured' }] as [CheckName, CheckResult]),
    run('media', () => ctx.media.files.check()),
  ]);
  const failing = results.filter(([, r]) => r.status === 'failed').map(([name]) => name);
  return { ready: failing.length === 0 , checks: Object.fromEntries(results), failing, warnings };
}

class CheckTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(ms)), ms);
  });
  // A probe that settles after its timeout must not surface as an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
