// events.follow() and `store-blog listen` across a real outage: a server process on a fixed
// loopback port is stopped (SIGTERM) while both run, left down while each has failed a few times
// in a row, and started again on the same port. Writes before the outage, during it (refused:
// there is no server) and after it. Every event arrives exactly once, in order, at the loop and
// at the listener's receiver, and neither ends. The outage is real; follow's back-off is made
// short and even (injected random) so its retries are many and countable.
//
// Bounded by counts, not by time: the server comes back once both have reported failures.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BlogClient, BlogConnectionError, type FeedEvent, type FollowRetryEvent } from 'store-blog-sdk';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { describeEachEngine } from '../helpers/engines.js';
import { unusedPort } from '../helpers/ports.js';
import { startServerProcess, waitUntilRefused, type ServerProcess } from '../helpers/server-process.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const CLI = fileURLToPath(new URL('../../sdk/dist/esm/cli.js', import.meta.url));

/** Waits for something other processes bring about (they run on the real clock). */
async function eventually(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeEachEngine('store-blog-sdk: follow and listen across a server restart', (target) => {
  let dir: string;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let server: ServerProcess | undefined;
  let rx: Receiver;
  let key: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sdk-outage-'));
    const created = await target.create();
    drop = created.drop;
    // A fixed port: the clients keep the address they were given, so the server must return to it.
    const port = await unusedPort();
    env = {
      DATABASE_URL: created.database.url,
      MEDIA_DIR: join(dir, 'media'),
      PUBLIC_BASE_URL: 'http://blog.test',
      PORT: String(port),
    };
    const ctx = await createContext(loadConfig(env));
    const store = await ctx.stores.create({ handle: 'outage-store', name: 'Outage', media: false, categories: true });
    key = (
      await ctx.keys.issue({
        storeId: store.id,
        application: 'outage-test',
        scopes: ['read_blog', 'write_blog', 'publish_blog'],
        readPerMinute: 1_000_000,
        writePerMinute: 1_000_000,
        concurrency: 64,
      })
    ).key;
    await ctx.close();
    rx = await startReceiver();
  });

  after(async () => {
    await server?.kill();
    await rx?.close();
    await drop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('neither ends while the server is down; after it, both continue from their cursor: each event once', async () => {
    server = await startServerProcess(env);
    const baseUrl = server.baseUrl;
    const sdk = new BlogClient({ baseUrl, apiKey: key, maxRetries: 0 });

    const stop = new AbortController();
    const seen: FeedEvent[] = [];
    const retries: FollowRetryEvent[] = [];
    let thrown: unknown;
    const following = (async () => {
      try {
        for await (const event of sdk.events.follow({
          signal: stop.signal,
          pollIntervalMs: 50,
          retry: { baseDelayMs: 20, maxDelayMs: 100, random: () => 0.5 },
          onRetry: (e) => void retries.push(e),
        }))
          seen.push(event);
      } catch (err) {
        thrown = err;
      }
    })();

    const state = join(dir, `${target.name}-listen.json`);
    const listener = spawn(
      process.execPath,
      [CLI, 'listen', '--forward-to', rx.url, '--state', state, '--from-start', '--poll-interval-ms', '50'],
      {
        env: { PATH: process.env.PATH ?? '', BLOG_API_KEY: key, BLOG_API_URL: baseUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    listener.stdout.on('data', (c) => (out += c));
    listener.stderr.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => listener.once('exit', resolve));
    try {
      await eventually('the listener to be ready', () => /Ready: starting from the oldest event kept/.test(out));

      // Before: three events.
      const a = await sdk.posts.create({ title: 'Before the outage', body_html: '<p>a</p>' });
      const b = await sdk.posts.create({ title: 'Also before', body_html: '<p>b</p>' });
      await sdk.posts.publish(a.id);
      await eventually('the events before the outage', () => seen.length === 3 && rx.received.length === 3);

      // The outage: the server stops; a write is refused (no one answers), both readers retry.
      await server.stop('SIGTERM');
      await waitUntilRefused(server.port);
      await assert.rejects(
        sdk.posts.create({ title: 'During the outage', body_html: '<p>lost</p>' }),
        (err: unknown) => {
          assert.ok(err instanceof BlogConnectionError);
          assert.equal(err.code, 'network_error');
          assert.equal(err.attempts, 1);
          assert.equal(err.corsSuspected, false);
          assert.equal(err.method, 'POST');
          assert.equal(err.path, '/v1/blog/posts');
          assert.match(
            err.message,
            /^POST \/v1\/blog\/posts: the connection failed \(fetch failed\), after 1 attempt$/,
          );
          return true;
        },
      );
      const failuresOf = () =>
        out.match(/The API did not answer \(network_error: GET \/v1\/events\?[^)]*\)/g)?.length ?? 0;
      await eventually('both readers to fail repeatedly', () => retries.length >= 5 && failuresOf() >= 3);
      assert.equal(thrown, undefined, 'follow did not end');
      assert.equal(listener.exitCode, null, 'listen did not end');
      for (const r of retries) {
        assert.ok(r.error instanceof BlogConnectionError && r.error.code === 'network_error');
        assert.equal(r.delayMs, Math.round(Math.min(100, 20 * 2 ** (r.failures - 1)) * 0.75));
      }
      assert.deepEqual(
        retries.slice(0, 5).map((r) => r.failures),
        [1, 2, 3, 4, 5],
      );
      assert.match(out, /trying again in \d+\.\d s \(failure 3 in a row\)/);

      // Back on the same port: two more writes.
      server = await startServerProcess(env);
      assert.equal(server.baseUrl, baseUrl);
      const c = await sdk.posts.create({ title: 'After the outage', body_html: '<p>c</p>' });
      await sdk.posts.delete(b.id);
      await eventually('the events after the outage', () => seen.length >= 5 && rx.received.length >= 5);

      const feed: FeedEvent[] = [];
      for await (const e of sdk.events.list()) feed.push(e);
      assert.deepEqual(
        feed.map((e) => [e.sequence, e.type]),
        [
          [1, 'post.created'],
          [2, 'post.created'],
          [3, 'post.published'],
          [4, 'post.created'],
          [5, 'post.deleted'],
        ],
      );
      assert.equal(feed[3]!.type === 'post.created' && feed[3]!.data.id, c.id);
      assert.deepEqual(seen, feed, 'follow: every event once, in order');
      assert.deepEqual(
        rx.received.map((r) => r.headers['webhook-id']),
        feed.map((e) => e.id),
        'listen: every event once, in order',
      );
      // The listener saves its cursor after the receiver's answer reaches it, a moment after the
      // receiver counted the delivery.
      const saved = () => JSON.parse(readFileSync(state, 'utf8')).cursors[`${baseUrl} outage-store`];
      await eventually('the listener to save its cursor', () => saved() === '5');
      assert.equal(saved(), '5');
      assert.equal(thrown, undefined);
    } finally {
      stop.abort();
      await following;
      listener.kill('SIGINT');
      assert.equal(await exited, 0);
    }
    assert.match(out, /Stopped: the next run resumes after sequence 5/);
  });
});
