// The SDK's events feed and webhook recovery calls, and `store-blog listen`, against a real
// server on a loopback port, on both engines. The listen command runs as its own process (the
// built sdk/dist/cli.js), forwarding to a real local receiver that verifies every request with
// `standardwebhooks` and the secret the command printed; it is stopped and started again to
// show it resumes where it stopped, and retries an event its receiver refused.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { BlogApiError, BlogClient, type FeedEvent, type Post } from 'store-blog-sdk';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const CLI = fileURLToPath(new URL('../../sdk/dist/esm/cli.js', import.meta.url));

/** Waits for something another process brings about (it runs on the real clock). */
async function eventually(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Listener {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function startListen(env: Record<string, string>, args: string[]): Listener {
  const child = spawn(process.execPath, [CLI, 'listen', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  return { child, output: () => out, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

describeEachEngine('store-blog-sdk: events feed, webhook recovery, listen', (target) => {
  let t: TestApp;
  let baseUrl: string;
  let rx: Receiver;
  let dir: string;
  before(async () => {
    t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    rx = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'listen-'));
  });
  after(async () => {
    await rx?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('events.list pages through the feed; events.follow resumes from a saved cursor and keeps polling', async () => {
    const { key } = await t.tenant();
    const sdk = new BlogClient({ baseUrl, apiKey: key });
    const posts: Post[] = [];
    for (let i = 0; i < 5; i++) posts.push(await sdk.posts.create({ title: `Feed ${i}`, body_html: `<p>${i}</p>` }));
    await sdk.posts.publish(posts[0].id);
    await sdk.posts.delete(posts[4].id);

    const all: FeedEvent[] = [];
    for await (const e of sdk.events.list({ limit: 2 })) all.push(e);
    assert.deepEqual(
      all.map((e) => e.sequence),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.deepEqual(all.map((e) => e.type).slice(5), ['post.published', 'post.deleted']);
    const deletions = [];
    for await (const e of sdk.events.list({ types: 'post.deleted' })) deletions.push(e.data);
    assert.deepEqual(deletions, [{ id: posts[4].id }]);

    // Follow from a saved cursor: the events after it, then new ones as they happen.
    const stop = new AbortController();
    const cursors: string[] = [];
    const seen: number[] = [];
    let polls = 0;
    const following = (async () => {
      for await (const e of sdk.events.follow({
        after: 5,
        limit: 1,
        signal: stop.signal,
        onCursor: (c) => void cursors.push(c),
        sleep: async () => {
          polls++;
          if (polls === 1) await sdk.posts.update(posts[1].id, { title: 'Changed while following' });
          if (polls === 3) stop.abort();
        },
      })) {
        seen.push(e.sequence);
      }
    })();
    await following;
    assert.deepEqual(seen, [6, 7, 8]);
    assert.deepEqual(cursors, ['6', '7', '8', '8']);

    // A cursor past retention: the error says so.
    t.clock.advance(31 * 86_400_000);
    await t.ctx.housekeeping.runPass();
    await assert.rejects(
      async () => {
        for await (const _ of sdk.events.follow({ after: 2, signal: AbortSignal.timeout(5000) })) break;
      },
      (err: unknown) => err instanceof BlogApiError && err.status === 410 && err.code === 'cursor_expired',
    );
    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
  });

  it('webhooks.getDelivery, retryDelivery and replay', async () => {
    rx.clear();
    const { key } = await t.tenant();
    const sdk = new BlogClient({ baseUrl, apiKey: key });
    const since = new Date(t.clock.now().getTime()).toISOString();
    const post = await sdk.posts.create({ title: 'Recover me', body_html: '<p>r</p>' });
    const endpoint = await sdk.webhooks.create({ url: rx.url, events: ['*'] });
    const replayed = await sdk.webhooks.replay(endpoint.id, { since, types: ['post.*'] });
    assert.equal(replayed.queued, 1);
    await t.ctx.webhookWorker.runOnce();
    const [delivery] = await (async () => {
      const out = [];
      for await (const d of sdk.webhooks.deliveries(endpoint.id, { status: 'succeeded' })) out.push(d);
      return out;
    })();
    const detail = await sdk.webhooks.getDelivery(endpoint.id, delivery.id);
    assert.deepEqual(
      detail.attempt_history.map((a) => [a.state, a.response_status]),
      [['succeeded', 200]],
    );
    const retry = await sdk.webhooks.retryDelivery(endpoint.id, delivery.id);
    assert.equal(retry.event_id, delivery.event_id);
    await t.ctx.webhookWorker.runOnce();
    assert.equal(rx.received.length, 2);
    for (const r of rx.received) {
      new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>);
      assert.equal(r.json.data.id, post.id);
    }
    await assert.rejects(
      sdk.webhooks.retryDelivery(endpoint.id, 'whd_missing'),
      (err: unknown) => err instanceof BlogApiError && err.code === 'not_found',
    );
  });

  it('store-blog listen forwards new events, signed, to a local receiver, resumes after a restart and retries a refusal', async () => {
    rx.clear();
    const { store, key } = await t.tenant();
    const sdk = new BlogClient({ baseUrl, apiKey: key });
    await sdk.posts.create({ title: 'Before listening', body_html: '<p>old</p>' });
    const state = join(dir, `${target.name}.json`);
    const env = { BLOG_API_KEY: key, BLOG_API_URL: baseUrl };
    const args = ['--forward-to', rx.url, '--state', state, '--poll-interval-ms', '100', '--types', 'post.*'];

    // Refusals are explained without starting.
    const bad = startListen({ BLOG_API_URL: baseUrl }, ['--forward-to', 'ftp://x']);
    assert.equal(await bad.exited, 2);
    assert.match(bad.output(), /BLOG_API_KEY is not set\n--forward-to needs an http\(s\) URL/);

    let run = startListen(env, args);
    try {
      await eventually('the listener to be ready', () => /Ready: resuming after sequence 1/.test(run.output()));
      const secret = /Signing secret: (whsec_\S+)/.exec(run.output())![1];
      assert.match(run.output(), new RegExp(`Store ${store.handle}: forwarding post\\.\\* to `));
      const a = await sdk.posts.create({ title: 'While listening', body_html: '<p>a</p>' });
      await sdk.categories.list().catch(() => undefined);
      await sdk.posts.publish(a.id);
      await eventually('two events forwarded', () => rx.received.length >= 2);
      assert.deepEqual(
        rx.received.map((r) => r.json.type),
        ['post.created', 'post.published'],
      );
      const feed = [];
      for await (const e of sdk.events.list({ after: 1 })) feed.push(e);
      for (const [i, r] of rx.received.entries()) {
        assert.deepEqual(new Webhook(secret).verify(r.body, r.headers as Record<string, string>), r.json);
        assert.equal(r.headers['webhook-id'], feed[i].id);
        assert.equal(r.headers['x-store-handle'], store.handle);
        assert.equal(r.headers['x-event-sequence'], String(feed[i].sequence));
        assert.deepEqual(r.json, { type: feed[i].type, timestamp: feed[i].timestamp, data: feed[i].data });
      }
      run.child.kill('SIGINT');
      assert.equal(await run.exited, 0);
      assert.match(run.output(), /Stopped: the next run resumes after sequence 3/);

      // While it is stopped: an unpublish, a delete; the receiver refuses the first try.
      await sdk.posts.unpublish(a.id);
      await sdk.posts.delete(a.id);
      rx.answer(500);
      run = startListen(env, args);
      await eventually('the events missed while stopped', () => rx.received.length >= 5);
      assert.match(run.output(), /Ready: resuming after sequence 3/);
      assert.equal(/Signing secret: (whsec_\S+)/.exec(run.output())![1], secret, 'the same secret across runs');
      assert.deepEqual(
        rx.received.slice(2).map((r) => [r.json.type, r.headers['x-event-sequence']]),
        [
          ['post.unpublished', '4'],
          ['post.unpublished', '4'],
          ['post.deleted', '5'],
        ],
      );
      assert.equal(rx.received[2].headers['webhook-id'], rx.received[3].headers['webhook-id']);
      assert.match(run.output(), /4 post\.unpublished msg_\w+ → 500; trying again in 1 s/);
      for (const r of rx.received) new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
      assert.deepEqual(rx.received[4].json.data, { id: a.id });
      await eventually(
        'the cursor saved',
        () => JSON.parse(readFileSync(state, 'utf8')).cursors[`${baseUrl} ${store.handle}`] === '5',
      );
    } finally {
      run.child.kill('SIGINT');
      await run.exited;
    }
  });
});
