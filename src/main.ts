// Start: read config, open database (migrating it), build the app, listen, close cleanly.
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { createContext } from './context.js';
import { ensureDemoStore } from './bootstrap/demo-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const ctx = await createContext(config, {
    onTrafficBackendError: (err) => app?.log.warn({ err }, 'rate-limit backend unavailable; limits fail open'),
  });
  app = await buildApp(ctx);

  const demo = await ensureDemoStore(ctx);
  if (demo.created) {
    process.stdout.write(
      `\nDemo store "demo" created with a key holding every scope (shown once; also saved to ${demo.keyFile}):\n\n  ${demo.key}\n\n`,
    );
  } else if (demo.keyFile) {
    process.stdout.write(`Demo key file: ${demo.keyFile}\n`);
  }

  await app.listen({ port: config.port, host: config.host });
  ctx.webhookWorker.start(app.log);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app?.log.info({ signal }, 'shutting down');
    await app?.close();
    await ctx.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  }
  process.exit(1);
});
