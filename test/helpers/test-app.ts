// An app under test: a real database (fresh per file), the real services issuing real keys, an
// injected clock, Fastify's inject() for HTTP, and the captured log lines.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/config/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import { ManualClock } from '../../src/lib/clock.js';
import { SCOPES, type Scope } from '../../src/modules/keys/index.js';
import type { StoreChanges, Store } from '../../src/modules/stores/index.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import type { EngineTarget } from './engines.js';

/** Every scope a key can hold, as the keys module defines them. */
export const ALL_SCOPES: Scope[] = [...SCOPES];

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: ManualClock;
  logs: string[];
  config: AppConfig;
  createStore(opts?: {
    categories?: boolean;
    media?: boolean;
    certified?: boolean;
    emoji?: boolean;
    changes?: StoreChanges;
  }): Promise<Store>;
  issueKey(
    store: Store,
    scopes?: Scope[],
    opts?: {
      expiresInDays?: number | null;
      readPerMinute?: number;
      writePerMinute?: number;
      concurrency?: number;
      application?: string;
    },
  ): Promise<string>;
  /** A store with every feature and a key with every scope. */
  tenant(opts?: { scopes?: Scope[]; categories?: boolean; media?: boolean }): Promise<{ store: Store; key: string }>;
  request(opts: RequestOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT' | 'HEAD';
  url: string;
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw payload with its own content type (bypasses JSON encoding). */
  payload?: string | Buffer;
}

export const START_TIME = '2026-09-15T02:00:00.000Z';

export async function startTestApp(target: EngineTarget, env: Record<string, string> = {}): Promise<TestApp> {
  const { database, drop } = await target.create();
  // A media folder of its own, removed on close (unless the caller chose one).
  const ownMediaDir = env.MEDIA_DIR === undefined ? join(tmpdir(), `blogapi-media-${randomLowerAlnum(8)}`) : null;
  const config: AppConfig = {
    ...loadConfig({ PUBLIC_BASE_URL: 'http://blog.test', ...(ownMediaDir ? { MEDIA_DIR: ownMediaDir } : {}), ...env }),
    database,
  };
  const clock = new ManualClock(START_TIME);
  const ctx = await createContext(config, { clock });
  // A server's first reconcile, run at its start: the copies in Redis are checked and trusted
  // from the first request on (an unreachable Redis leaves them untrusted, as on a server).
  await ctx.sharedVersions?.reconcile().catch(() => undefined);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp(ctx, { logStream, logLevel: 'info' });
  await app.ready();

  const createStore: TestApp['createStore'] = async (opts = {}) => {
    const store = await ctx.stores.create({ handle: `s-${randomLowerAlnum(10)}`, name: 'Test Store', ...opts });
    return opts.changes ? ((await ctx.stores.update(store.handle, opts.changes)) as Store) : store;
  };
  const issueKey: TestApp['issueKey'] = async (store, scopes = ALL_SCOPES, opts = {}) => {
    const issued = await ctx.keys.issue({
      storeId: store.id,
      application: opts.application ?? 'test-app',
      scopes,
      ...opts,
    });
    return issued.key;
  };

  return {
    app,
    ctx,
    clock,
    logs,
    config,
    createStore,
    issueKey,
    async tenant(opts = {}) {
      const store = await createStore({ categories: opts.categories, media: opts.media });
      return { store, key: await issueKey(store, opts.scopes) };
    },
    request(opts) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
      let payload: string | Buffer | undefined = opts.payload;
      if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      return app.inject({ method: opts.method, url: opts.url, headers, payload });
    },
    async close() {
      await app.close();
      await ctx.close();
      await drop();
      if (ownMediaDir) rmSync(ownMediaDir, { recursive: true, force: true });
    },
  };
}
