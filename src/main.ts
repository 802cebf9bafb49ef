// Start: read config, open database (migrating it), build the app, listen, close cleanly.
import './runtime-check.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { createContext } from './context.js';
import { SchemaTooNewError } from './db/migrate.js';
import { ensureDemoStore } from './bootstrap/demo-store.js';
import { limitsArePerProcess, PER_PROCESS_LIMITS_WARNING } from './http/readiness.js';
import { shutDownGracefully } from './http/shutdown.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, { migrate: config.ops.migrateOnStart });
  const app = await buildApp(ctx);
  // Redis errors: one line per kind per minute, with how many were not logged (src/traffic/redis-health.ts).
  const log = app.log;
  ctx.redisHealth?.setLog(({ kind, err, suppressed }) =>
    log.warn(
      { err, kind, suppressed },
      'Redis failing: limits are counted by each process alone and cache versions read from PostgreSQL until it answers',
    ),
  );

  // PostgreSQL link failures: the same, one line per kind per minute (src/db/database-errors.ts).
  ctx.databaseHealth?.setLog(({ kind, err, suppressed }) =>
    log.warn({ err, kind, suppressed }, 'PostgreSQL failing: requests that need it answer 503 service_unavailable'),
  );
  // A breaker opening or closing is one line each way (src/lib/circuit-breaker.ts).
  for (const breaker of ctx.breakers) {
    breaker.onChange((state) =>
      state === 'open'
        ? log.warn(
            { dependency: breaker.name },
            `${breaker.name}: circuit open after repeated timeouts; not waiting on it until a probe answers`,
          )
        : log.info({ dependency: breaker.name }, `${breaker.name}: circuit closed; it answers again`),
    );
  }

  const demo = await ensureDemoStore(ctx);
  if (demo.created) {
    process.stdout.write(
      `\nDemo store "demo" created with a key holding every scope (shown once; also saved to ${demo.keyFile}):\n\n  ${demo.key}\n\n`,
    );
  } else if (demo.keyFile) {
    process.stdout.write(`Demo key file: ${demo.keyFile}\n`);
  }

  if (limitsArePerProcess(ctx)) {
    app.log.warn(PER_PROCESS_LIMITS_WARNING);
    process.stderr.write(
      `\nWARNING: ${PER_PROCESS_LIMITS_WARNING}. Set REDIS_URL when running more than one process.\n\n`,
    );
  }

  await app.listen({ port: config.port, host: config.host });
  const server = app;
  // Housekeeping, webhook delivery, page-view flushes, the cache-version reconcile (src/context.ts).
  ctx.jobs.start(app.log);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      // A second signal: the operator wants out now.
      server.log.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    closing = true;
    // SIGTERM comes from an orchestrator, behind a load balancer: drain first. SIGINT is a
    // person at a terminal (Ctrl-C): no balancer to wait for.
    const times = {
      drainMs: signal === 'SIGTERM' ? config.ops.shutdownDrainMs : 0,
      graceMs: config.ops.shutdownGraceMs,
    };
    server.log.info({ signal, ...times }, 'shutting down');
    shutDownGracefully(server, ctx, times).then(
      (outcome) => process.exit(outcome === 'clean' ? 0 : 1),
      (err) => {
        server.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof SchemaTooNewError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
