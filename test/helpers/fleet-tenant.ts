// What the tests that run a fleet of server processes (test/fault) stand on: a PostgreSQL
// database, a Redis and a media folder of their own; and a tenant: a store made through the app's
// own services on the fleet's database, two keys with every scope and limits far away (the first
// may be given its own), and a post titled t-0 created through one of the servers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { send } from './fetch-response.js';
import { ALL_SCOPES } from './test-app.js';
import { postgresEngine } from './engines.js';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';

export interface FleetGround {
  database: { url: string };
  redis: PrivateRedis;
  media: string;
  /** The fleet's environment: its database, Redis and media folder. */
  env: { DATABASE_URL: string; REDIS_URL: string; MEDIA_DIR: string };
  /** Drops the database, stops Redis and removes the media folder. */
  release(): Promise<void>;
}

export async function startFleetGround(name: string): Promise<FleetGround> {
  const redis = await startPrivateRedis();
  const { database, drop } = await postgresEngine.create();
  const media = mkdtempSync(join(tmpdir(), `blogapi-${name}-`));
  return {
    database,
    redis,
    media,
    env: { DATABASE_URL: database.url, REDIS_URL: redis.url, MEDIA_DIR: media },
    release: async () => {
      await drop();
      await redis.stop();
      rmSync(media, { recursive: true, force: true });
    },
  };
}

export interface FleetTenant {
  store: { id: number; handle: string };
  key: string;
  other: string;
  postId: string;
}

export async function fleetTenant(
  env: { DATABASE_URL: string; REDIS_URL: string; MEDIA_DIR: string },
  serverBaseUrl: string,
  keyOptions: { readPerMinute?: number; concurrency?: number } = {},
): Promise<FleetTenant> {
  const ctx = await createContext(loadConfig({ ...env, PUBLIC_BASE_URL: 'http://blog.test' }));
  try {
    const store = await ctx.stores.create({ handle: `f-${randomUUID().slice(0, 8)}`, name: 'Fleet store' });
    const issue = async (o = {}) =>
      (
        await ctx.keys.issue({
          storeId: store.id,
          application: 'fleet',
          scopes: ALL_SCOPES,
          readPerMinute: 100_000,
          writePerMinute: 100_000,
          concurrency: 100,
          ...o,
        })
      ).key;
    const key = await issue(keyOptions);
    const other = await issue();
    const post = await send(serverBaseUrl, 'POST', '/v1/blog/posts', {
      key,
      body: { title: 't-0', body_html: '<p>x</p>' },
      headers: { 'idempotency-key': randomUUID() },
    });
    assert.equal(post.statusCode, 201, post.body);
    return { store, key, other, postId: post.json().id as string };
  } finally {
    await ctx.close();
  }
}
