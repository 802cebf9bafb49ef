// `store-blog listen` killed with SIGKILL (no shutdown code runs) right after it reports an event
// accepted, twice, and started again each time: the receiver accepts every event exactly once,
// in feed order. The listener saves its cursor before it reports, so whatever it reported is
// never sent again.
//
// The receiver here answers 2xx only to what it accepts, and holds the event after each kill
// point unanswered until the kill is done: an event whose answer the listener never read is not
// one the receiver accepted (and would rightly be sent again), so the test leaves no such
// window. Bounded by the listener's own report, not by time.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BlogClient, type FeedEvent } from 'store-blog-sdk';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const CLI = fileURLToPath(new URL('../../sdk/dist/esm/cli.js', import.meta.url));
/** Sequences after whose "→ 200" report the listener is killed. */
const KILL_AFTER = [2, 4];
const EVENTS = 6;

async function eventually(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeEachEngine('store-blog listen: kill -9 and restart', (target) => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  let receiver: Server;
  let receiverUrl: string;
  /** The webhook-id of each event the receiver answered 2xx, in order. */
  const accepted: string[] = [];
  /** Sequences to hold unanswered (once each) until release(). */
  const holdOnce = new Set<number>();
  const held: ServerResponse[] = [];

  before(async () => {
    t = await startTestApp(target);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'listen-kill-'));
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const sequence = Number(req.headers['x-event-sequence']);
        if (holdOnce.delete(sequence)) return void held.push(res);
        accepted.push(String(req.headers['webhook-id']));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  after(async () => {
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after the last event it reported accepted: nothing repeated, nothing missed', async () => {
    accepted.length = 0;
    const { key } = await t.tenant();
    const sdk = new BlogClient({ baseUrl, apiKey: key });
    for (let i = 0; i < EVENTS; i++) await sdk.posts.create({ title: `Kill ${i}`, body_html: `<p>${i}</p>` });
    const state = join(dir, `${target.name}.json`);
    const args = ['listen', '--forward-to', receiverUrl, '--state', state, '--from-start', '--poll-interval-ms', '50'];
    const outputs: string[] = [];

    const run = (killAfter: number | undefined) => {
      if (killAfter !== undefined) holdOnce.add(killAfter + 1);
      const child: ChildProcess = spawn(process.execPath, [CLI, ...args], {
        env: { PATH: process.env.PATH ?? '', BLOG_API_KEY: key, BLOG_API_URL: baseUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      const report = new RegExp(`^${killAfter} post\\.created msg_\\w+ → 200$`, 'm');
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        // At once, in the same turn that reads the report: as soon as a watcher could.
        if (killAfter !== undefined && report.test(out)) child.kill('SIGKILL');
      });
      child.stderr!.on('data', (chunk) => (out += chunk));
      outputs.push('');
      const index = outputs.length - 1;
      child.stdout!.on('data', () => (outputs[index] = out));
      return {
        child,
        exited: new Promise<string | null>((resolve) => child.once('exit', (_, signal) => resolve(signal))),
      };
    };

    for (const [i, killAfter] of KILL_AFTER.entries()) {
      const { child, exited } = run(killAfter);
      await eventually(
        `the report of sequence ${killAfter}`,
        () => child.signalCode !== null || child.exitCode !== null,
        20_000,
      ).catch((err: Error) => {
        child.kill('SIGKILL');
        throw new Error(`${err.message}; the listener printed:\n${outputs.at(-1)}`);
      });
      assert.equal(await exited, 'SIGKILL');
      // The held request died with the listener: never answered, so never accepted.
      for (const res of held.splice(0)) res.destroy();
      // The kill may come before the held event was even sent: the next run must not hold it.
      holdOnce.clear();
      assert.match(outputs[i]!, i === 0 ? /Ready: starting from the oldest event kept/ : /Ready: resuming after/);
    }
    const last = run(undefined);
    try {
      await eventually('every event accepted', () => accepted.length >= EVENTS);
      await eventually('the last report', () => new RegExp(`^${EVENTS} post\\.created`, 'm').test(outputs.at(-1)!));
    } finally {
      last.child.kill('SIGINT');
      await last.exited;
    }
    assert.match(outputs[1]!, new RegExp(`Ready: resuming after sequence ${KILL_AFTER[0]}`));
    assert.match(outputs[2]!, new RegExp(`Ready: resuming after sequence ${KILL_AFTER[1]}`));

    const feed: FeedEvent[] = [];
    for await (const e of sdk.events.list()) feed.push(e);
    assert.equal(feed.length, EVENTS);
    assert.deepEqual(
      accepted,
      feed.map((e) => e.id),
    );
  });
});
