// A tenant for the tests that run a fleet of server processes (test/fault): a store made through
// the app's own services on the fleet's database, two keys with every scope and limits far away
// (the first may be given its own), and a post titled t-0 created through one of the servers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { send } from './fetch-response.js';
import { ALL_SCOPES } from './test-app.js';

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
