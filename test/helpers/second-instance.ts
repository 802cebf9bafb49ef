// Another app instance over the SAME database as a TestApp: its own pool, its own process-level
// state, as a second server behind a load balancer would have.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createContext, type AppContext, type ContextOptions } from '../../src/context.js';
import { after, before } from 'node:test';
import type { EngineTarget } from './engines.js';
import { startTestApp, type TestApp } from './test-app.js';

export async function secondInstance(
  t: TestApp,
  options: Omit<ContextOptions, 'clock'> = {},
): Promise<{ app: FastifyInstance; ctx: AppContext; close: () => Promise<void> }> {
  const ctx = await createContext(t.config, { ...options, clock: t.clock });
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

export interface TwoInstances {
  /** The instance under test (requests go here). */
  t: TestApp;
  /** A second instance on the same database, for writes "from elsewhere". */
  other: Awaited<ReturnType<typeof secondInstance>>;
}

/**
 * Registers before/after hooks in the current describe block that start a test app and a
 * second instance over its database, and close both. Read the members inside tests.
 */
export function useTwoInstances(target: EngineTarget): TwoInstances {
  const pair = {} as TwoInstances;
  before(async () => {
    pair.t = await startTestApp(target);
    pair.other = await secondInstance(pair.t);
  });
  after(async () => {
    await pair.other?.close();
    await pair.t?.close();
  });
  return pair;
}
