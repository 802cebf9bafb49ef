// store-blog-sdk bundled for browsers (esbuild, platform "browser", from the built ES module
// entry) and run in a real Chromium against a real server: identity, an upload from a Blob, a
// create, an update and a publish guarded by copies of the post, a stale copy refused with 412,
// paging, a timeout, a cancelled call, and verifyWebhook on Web Crypto. The page and the bundle
// are served by a small server of the test that forwards /v1 to the app, so the page calls the
// API from its own origin (the service sends no CORS headers). Everything listens on loopback.
// Without /usr/bin/chromium the suite is skipped, unless REQUIRE_BROWSER=1 (CI).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import {
  answerSiteFile,
  browserSkipReason,
  bundleForBrowser,
  closeServer,
  launchBrowser,
  listenOnLoopback,
  runScenarioPage,
} from '../helpers/browser.js';
import sharp from 'sharp';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const SDK_ENTRY = fileURLToPath(new URL('../../sdk/dist/esm/index.js', import.meta.url));

// The page's scenario, as an integrator would write it for a browser.
const SCENARIO = `
import { BlogApiError, BlogClient, BlogConnectionError, verifyWebhook } from '/sdk.js';

const input = JSON.parse(document.getElementById('input').textContent);
try {
const blog = new BlogClient({ baseUrl: location.origin, apiKey: input.key, maxRetryDelayMs: 1000 });
const out = {};
const me = await blog.me();
out.handle = me.store.handle;
const png = Uint8Array.from(atob(input.png), (c) => c.charCodeAt(0));
const image = await blog.images.upload(new Blob([png], { type: 'image/png' }), { filename: 'cover.png' });
out.imageType = image.content_type;
const post = await blog.posts.create({ title: 'Written in a browser', body_html: '<p>Hello from Chromium</p>', cover_image_url: image.url });
const copy = structuredClone(post);
const updated = await blog.posts.update(post.id, { summary: 'Edited through a copy' }, { ifMatch: copy });
const stale = await blog.posts.update(post.id, { summary: 'Lost update' }, { ifMatch: copy }).catch((e) => e);
out.stale = [stale instanceof BlogApiError, stale.status, stale.code, typeof stale.requestId];
const published = await blog.posts.publish(post.id, { ifMatch: { ...updated } });
out.published = published.status;
out.listed = (await blog.posts.list({ limit: 1 }).autoPagingToArray({ limit: 5 })).map((p) => p.title);
const never = new BlogClient({ baseUrl: location.origin + '/never', apiKey: input.key, timeoutMs: 200, maxRetries: 0 });
const timedOut = await never.me().catch((e) => e);
out.timeout = [timedOut instanceof BlogConnectionError, timedOut.code, timedOut.attempts];
const controller = new AbortController();
const cancelled = never.me({ signal: controller.signal }).catch((e) => e.name);
controller.abort();
out.cancelled = await cancelled;
const event = await verifyWebhook(input.webhook.body, new Headers(input.webhook.headers), input.webhook.secret, { now: input.webhook.now });
out.event = event.type;
out.forged = await verifyWebhook(input.webhook.body + ' ', new Headers(input.webhook.headers), input.webhook.secret, { now: input.webhook.now }).then(() => 'accepted', (e) => e.name);
window.result = out;
} catch (err) {
  window.result = { failed: String(err && err.stack || err) };
}
`;

describe('store-blog-sdk in a real browser', { skip: browserSkipReason('the SDK browser test') }, () => {
  let t: TestApp;
  let site: Server;
  let origin: string;
  let browser: Browser;
  let bundle: string;
  let handle: string;

  before(async () => {
    t = await startTestApp(sqlite);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (t.app.server.address() as AddressInfo).port;
    bundle = await bundleForBrowser({ entryPoints: [SDK_ENTRY] });
    let page = '';
    site = createServer((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/v1/')) {
        // Same origin for the page: forward to the app as is.
        const forward = request(
          { host: '127.0.0.1', port: appPort, method: req.method, path: url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(forward);
        return;
      }
      if (url.startsWith('/never/')) return void req.resume(); // accepted, never answered
      answerSiteFile(req, res, { page, sdk: bundle, scenario: SCENARIO });
    });
    origin = await listenOnLoopback(site);
    const { store, key } = await t.tenant({ media: true });
    handle = store.handle;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 90, b: 160 } } })
      .png()
      .toBuffer();
    const secretBytes = Buffer.alloc(32, 9);
    const body = JSON.stringify({
      id: 'evt_browser',
      type: 'webhook.test',
      occurred_at: '2026-11-26T08:00:00+08:00',
      data: {},
    });
    const headers = {
      'webhook-id': 'msg_browser',
      'webhook-timestamp': '1795000000',
      'webhook-signature': `v1,${createHmac('sha256', secretBytes).update(`msg_browser.1795000000.${body}`).digest('base64')}`,
    };
    const input = {
      key,
      png: png.toString('base64'),
      webhook: { body, headers, secret: `whsec_${secretBytes.toString('base64')}`, now: 1_795_000_000_000 },
    };
    page = `<!doctype html><meta charset="utf-8"><title>SDK</title><script type="application/json" id="input">${JSON.stringify(input)}</script><script type="module" src="/scenario.js"></script>`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await closeServer(site);
    await t?.close();
  });

  it('the browser bundle imports nothing of Node', () => {
    assert.doesNotMatch(bundle, /\bnode:|require\(/);
  });

  it('runs a short scenario against the real server from a page', async () => {
    const { page, result, errors } = await runScenarioPage(browser, origin);
    assert.deepEqual(errors, []);
    assert.deepEqual(result, {
      handle,
      imageType: 'image/png',
      stale: [true, 412, 'precondition_failed', 'string'],
      published: 'published',
      listed: ['Written in a browser'],
      timeout: [true, 'timeout', 1],
      cancelled: 'AbortError',
      event: 'webhook.test',
      forged: 'WebhookVerificationError',
    });
    await page.close();
  });
});
