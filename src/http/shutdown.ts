// Graceful shutdown (SIGTERM/SIGINT): /readyz answers 503 at once, the listener stops accepting,
// in-flight requests (an upload included) get SHUTDOWN_GRACE_MS to finish, then the context
// closes (page views flushed, filter threads, Redis and the database closed).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

export type ShutdownOutcome = 'clean' | 'forced';

export async function shutDownGracefully(app: FastifyInstance, ctx: AppContext, graceMs: number): Promise<ShutdownOutcome> {
  app.shutdownFlag.begin();
  let outcome: ShutdownOutcome = 'clean';
  // app.close() stops accepting, closes idle keep-alive connections and waits for the busy ones
  // (each closes after its answer, which carries Connection: close once shutdown has begun).
  const grace = setTimeout(() => {
    outcome = 'forced';
    app.log.warn({ graceMs }, 'requests still in flight after the shutdown grace period; closing their connections');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(grace);
  }
  await ctx.close();
  return outcome;
}
