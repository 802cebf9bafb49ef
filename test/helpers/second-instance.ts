// Another app instance over the SAME database as a TestApp: its own pool, its own process-level
// state, as a second server behind a load balancer would have.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createContext, type AppContext } from '../../src/context.js';
import type { TestApp } from './test-app.js';

export async function secondInstance(t: TestApp): Promise<{ app: FastifyInstance; ctx: AppContext; close(): Promise<void> }> {
  const ctx = await createContext(t.config, { clock: t.clock });
  const app = await buildApp(ctx, { logLevel: 'silent' });
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}
