// GET /livez and GET /readyz for load balancers and orchestrators: outside /v1, no key, no rate
// limit, and logged only at warn and above (a probe every few seconds would drown the info log).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { checkReadiness, type CheckName, type ShutdownFlag } from '../readiness.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext, shutdown: ShutdownFlag): void {
  const quiet = { logLevel: 'warn' as const, schema: { hide: true } };

  // Alive while the event loop turns and the server answers; no dependency is asked, so a
  // database outage never makes an orchestrator restart every process at once.
  app.get('/livez', quiet, async (_request, reply) => reply.send({ status: 'alive' }));

  // Plain /readyz: "send me traffic" (the database and shutdown only; a degraded Redis or object
  // store is a warning). /readyz?strict=1: every check must pass (docs/operations.md).
  // A failing check is logged once when it starts failing, with its reason (which the public
  // answer leaves out: it may name internal hosts), and again when it recovers.
  const failingBefore = new Set<CheckName>();
  app.get('/readyz', quiet, async (request, reply) => {
    const strict = (request.query as Record<string, unknown> | undefined)?.strict;
    const readiness = await checkReadiness(
      ctx,
      shutdown,
      (name, err) => {
        if (!failingBefore.has(name)) request.log.warn({ err, check: name }, 'readiness check failing');
      },
      { strict: strict === '1' || strict === 'true' },
    );
    const failed = [...readiness.failing, ...readiness.degraded];
    for (const name of failingBefore)
      if (!failed.includes(name)) request.log.warn({ check: name }, 'readiness check recovered');
    failingBefore.clear();
    for (const name of failed) failingBefore.add(name);
    return reply.code(readiness.ready ? 200 : 503).send({
      status: readiness.ready ? 'ready' : 'not_ready',
      checks: readiness.checks,
      failing: readiness.failing,
      degraded: readiness.degraded,
      warnings: readiness.warnings,
    });
  });
}
