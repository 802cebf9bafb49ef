// store-blog-sdk in workerd, the open-source runtime of Cloudflare Workers (an edge runtime:
// fetch and Web Crypto, no Node). workerd is installed from the npm registry into a temporary
// folder; a worker bundling the SDK (esbuild, from the built ES module entry) runs a short
// scenario against a real server on a loopback port and answers with what it saw. workerd
// listens on loopback and its outbound network is limited to local addresses. Slow tier.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import sharp from 'sharp';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { unusedPort } from '../helpers/ports.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const WORKERD_VERSION = '1.20261117.1';
const SDK_ENTRY = fileURLToPath(new URL('../../sdk/dist/esm/index.js', import.meta.url));
const SUPPORTED = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'].includes(
  `${process.platform}-${process.arch}`,
);

const WORKER = `
import { BlogApiError, BlogClient, BlogConnectionError, verifyWebhook } from ${JSON.stringify(SDK_ENTRY)};

export default {
  async fetch(request) {
    const input = await request.json();
    const blog = new BlogClient({ baseUrl: input.baseUrl, apiKey: input.key, maxRetryDelayMs: 1000 });
    const out = {};
    try {
      out.handle = (await blog.me()).store.handle;
      const png = Uint8Array.from(atob(input.png), (c) => c.charCodeAt(0));
      out.imageType = (await blog.images.upload(png, { filename: 'edge.png' })).content_type;
      const post = await blog.posts.create({ title: 'Written at the edge', body_html: '<p>workerd</p>' });
      const copy = structuredClone(post);
      const updated = await blog.posts.update(post.id, { summary: 'through a copy' }, { ifMatch: copy });
      const stale = await blog.posts.update(post.id, { summary: 'lost' }, { ifMatch: copy }).catch((e) => e);
      out.stale = [stale instanceof BlogApiError, stale.status, stale.code];
      out.published = (await blog.posts.publish(post.id, { ifMatch: { ...updated } })).status;
      out.listed = (await blog.posts.list().autoPagingToArray({ limit: 10 })).map((p) => p.title);
      const down = new BlogClient({ baseUrl: input.closedUrl, apiKey: input.key, maxRetries: 1, retry: { baseDelayMs: 1 } });
      const refused = await down.me().catch((e) => e);
      out.connection = [refused instanceof BlogConnectionError, refused.code, refused.attempts];
      out.event = (await verifyWebhook(input.webhook.body, new Headers(input.webhook.headers), input.webhook.secret, { now: input.webhook.now })).type;
    } catch (err) {
      out.failed = String((err && err.stack) || err);
    }
    return Response.json(out);
  },
};
`;

function config(port: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-01-01",
  globalOutbound = "loopback",
);
`;
}

const skip = SUPPORTED ? undefined : `workerd has no build for ${process.platform}-${process.arch}`;
describe('store-blog-sdk in workerd (an edge runtime)', { skip }, () => {
  let work: string;
  let t: TestApp;
  let baseUrl: string;
  let workerd: ChildProcess | undefined;
  let workerUrl: string;
  let output = '';

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'store-blog-sdk-workerd-'));
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'workerd-runtime', private: true }));
    await run('npm', ['install', `workerd@${WORKERD_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: work,
      env: { ...process.env, NODE_ENV: '' },
    });
    const bundled = await build({
      stdin: { contents: WORKER, loader: 'js', resolveDir: work },
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    writeFileSync(join(work, 'worker.js'), bundled.outputFiles[0]!.text);
    const port = await unusedPort();
    writeFileSync(join(work, 'config.capnp'), config(port));
    workerUrl = `http://127.0.0.1:${port}/`;
    workerd = spawn(join(work, 'node_modules/.bin/workerd'), ['serve', 'config.capnp'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workerd.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    workerd.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    t = await startTestApp(sqlite);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    if (workerd && workerd.exitCode === null) {
      const exited = new Promise((resolve) => workerd!.once('exit', resolve));
      workerd.kill('SIGTERM');
      await exited;
    }
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** The worker's answer; workerd is asked again while it is still opening its socket. */
  async function callWorker(body: unknown): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(workerUrl, { method: 'POST', body: JSON.stringify(body) });
        return (await res.json()) as Record<string, unknown>;
      } catch (err) {
        // Refused until workerd has opened its socket; it exits on a configuration error.
        if (attempt >= 600 || workerd?.exitCode !== null)
          throw new Error(`workerd did not answer: ${String(err)}\n${output}`, { cause: err });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  it('runs a short scenario against the real server', async () => {
    const { store, key } = await t.tenant({ media: true });
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 240, g: 130, b: 20 } } })
      .png()
      .toBuffer();
    const secretBytes = Buffer.alloc(32, 5);
    const body = JSON.stringify({
      id: 'evt_edge',
      type: 'webhook.test',
      occurred_at: '2026-11-26T08:00:00+08:00',
      data: {},
    });
    const headers = {
      'webhook-id': 'msg_edge',
      'webhook-timestamp': '1795000000',
      'webhook-signature': `v1,${createHmac('sha256', secretBytes).update(`msg_edge.1795000000.${body}`).digest('base64')}`,
    };
    const closedUrl = `http://127.0.0.1:${await unusedPort()}`;
    const result = await callWorker({
      baseUrl,
      key,
      closedUrl,
      png: png.toString('base64'),
      webhook: { body, headers, secret: `whsec_${secretBytes.toString('base64')}`, now: 1_795_000_000_000 },
    });
    assert.deepEqual(result, {
      handle: store.handle,
      imageType: 'image/png',
      stale: [true, 412, 'precondition_failed'],
      published: 'published',
      listed: ['Written at the edge'],
      connection: [true, 'network_error', 2],
      event: 'webhook.test',
    });
  });
});
