// Graceful shutdown, in the order a load balancer needs to lose no request (docs/deployment.md):
// 1. /readyz answers 503 at once, and every answer from now on carries Connection: close;
// 2. the drain: for SHUTDOWN_DRAIN_MS the process keeps accepting and serving, so requests the
//    balancer sends before its checks notice are answered, and each keep-alive connection is
//    closed right after an answer (never while idle, when a request may be on its way to it);
// 3. the listener closes; connections still idle (the balancer should have closed them) are
//    closed; requests in flight (an upload included) get SHUTDOWN_GRACE_MS to finish;
// 4. the context closes (page views flushed, filter threads, Redis and the database closed).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { systemTimers, type Timers } from '../lib/timers.js';

export type ShutdownOutcome = 'clean' | 'forced';

export interface ShutdownTimes {
  /** Serving on with /readyz failing, before the listener closes (0: no drain). */
  drainMs: number;
  /** After the drain, for requests in flight. */
  graceMs: number;
}

export async function shutDownGracefully(
  app: FastifyInstance,
  ctx: AppContext,
  times: ShutdownTimes,
  timers: Timers = systemTimers,
): Promise<ShutdownOutcome> {
  app.shutdownFlag.begin();
  if (times.drainMs > 0) {
    app.log.info({ drainMs: times.drainMs }, 'draining: /readyz fails, requests are still served');
    await new Promise<void>((resolve) => timers.setTimeout(resolve, times.drainMs));
  }
  let outcome: ShutdownOutcome = 'clean';
  // app.close() stops accepting, closes idle keep-alive connections and waits for the busy ones
  // (each closes after its answer, which carries Connection: close once shutdown has begun).
  const grace = timers.setTimeout(() => {
    outcome = 'forced';
    app.log.warn(
      { graceMs: times.graceMs },
      'requests still in flight after the shutdown grace period; closing their connections',
    );
    app.server.closeAllConnections();
  }, times.graceMs);
  try {
    await app.close();
  } finally {
    timers.clearTimeout(grace);
  }
  await ctx.close();
  return outcome;
}
