// The Content API from a storefront page on another origin, in a real Chromium against a real
// server: a page served from one loopback origin (allowed by the store) calls the API on another
// with store-blog-sdk's ContentClient and a read_published key, pages through the published
// posts, reads one, and renders them; the same page from an origin the store does not allow is
// refused by the browser (CORS), which the SDK reports as a probable CORS refusal. Everything
// listens on 127.0.0.1. Without /usr/bin/chromium the suite is skipped, unless REQUIRE_BROWSER=1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
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
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { createPost, publish } from '../helpers/posts.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const SDK_DIR = fileURLToPath(new URL('../../sdk/dist/esm/', import.meta.url));

// The storefront's script, as an integrator would write it.
const SCENARIO = `
import { BlogConnectionError, ContentClient } from '/sdk.js';

const input = JSON.parse(document.getElementById('input').textContent);
try {
  const content = new ContentClient({ baseUrl: input.api, apiKey: input.key, maxRetries: 0 });
  const posts = await content.listPosts({ limit: 1 }).autoPagingToArray({ limit: 10 });
  const list = document.getElementById('posts');
  for (const post of posts) {
    const item = document.createElement('li');
    item.textContent = post.title;
    list.append(item);
  }
  const first = await content.getPost(posts[0].id);
  document.getElementById('body').innerHTML = first.body_html;
  const controller = new AbortController();
  const aborted = content.listPostsPage({}, { signal: controller.signal }).catch((e) => e.name);
  controller.abort();
  window.result = { titles: posts.map((p) => p.title), etag: typeof first.etag, aborted: await aborted };
} catch (err) {
  window.result =
    err instanceof BlogConnectionError
      ? { refused: err.code, corsSuspected: err.corsSuspected }
      : { failed: String((err && err.stack) || err) };
}
`;

const skip = browserSkipReason('the Content API browser test');
describe('the Content API from a storefront page on another origin, in a real browser', { skip }, () => {
  let t: TestApp;
  let allowedSite: Server;
  let otherSite: Server;
  let allowedOrigin: string;
  let otherOrigin: string;
  let browser: Browser;
  let bundle: string;
  let page = '';
  let apiRequests: Array<{ method: string; url: string; origin: string | undefined }> = [];

  const storefront = () =>
    createServer((req, res) => answerSiteFile(req, res, { page, sdk: bundle, scenario: SCENARIO }));

  before(async () => {
    t = await startTestApp(sqlite);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    // What reached the API, observed beside the app's own handler.
    t.app.server.on('request', (req) => {
      apiRequests.push({ method: req.method ?? '', url: req.url ?? '', origin: req.headers.origin });
    });
    const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // Only what a storefront imports: ContentClient and its error.
    bundle = await bundleForBrowser({
      stdin: {
        contents: "export { BlogConnectionError, ContentClient } from './index.js';",
        resolveDir: SDK_DIR,
        loader: 'js',
      },
    });
    allowedSite = storefront();
    otherSite = storefront();
    allowedOrigin = await listenOnLoopback(allowedSite);
    otherOrigin = await listenOnLoopback(otherSite);

    const store = await t.createStore({ changes: { allowed_origins: allowedOrigin } });
    const admin = await t.issueKey(store);
    const key = await t.issueKey(store, ['read_published']);
    const older = await createPost(t, admin, { title: 'First light', body_html: '<p>Opening day</p>' });
    const newer = await createPost(t, admin, { title: 'Autumn menu', body_html: '<p>Chestnuts are back</p>' });
    await createPost(t, admin, { title: 'Unfinished draft' });
    assert.equal((await publish(t, admin, older.id, '2026-09-15T08:00:00+08:00')).statusCode, 200);
    assert.equal((await publish(t, admin, newer.id, '2026-09-15T09:00:00+08:00')).statusCode, 200);
    page = `<!doctype html><meta charset="utf-8"><title>Shop</title><script type="application/json" id="input">${JSON.stringify({ api, key })}</script><ul id="posts"></ul><div id="body"></div><script type="module" src="/scenario.js"></script>`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const site of [allowedSite, otherSite]) await closeServer(site);
    await t?.close();
  });

  async function run(origin: string) {
    apiRequests = [];
    const { page: tab, result, errors } = await runScenarioPage(browser, origin);
    const rendered = await tab.$$eval('#posts li', (items) => items.map((li) => li.textContent));
    const body = await tab.$eval('#body', (div) => div.textContent);
    await tab.close();
    assert.deepEqual(errors, []);
    return { result, rendered, body };
  }

  it('the ContentClient bundle holds none of the management client', () => {
    assert.match(bundle, /\/v1\/content\/posts/);
    assert.doesNotMatch(bundle, /\/v1\/blog\/|\/v1\/media\/|\/v1\/webhooks|\/v1\/audit|verifyWebhook/);
    assert.doesNotMatch(bundle, /\bnode:|require\(/);
  });

  it('a page from an allowed origin renders the published posts, newest first, across pages', async () => {
    const { result, rendered, body } = await run(allowedOrigin);
    assert.deepEqual(result, { titles: ['Autumn menu', 'First light'], etag: 'string', aborted: 'AbortError' });
    assert.deepEqual(rendered, ['Autumn menu', 'First light']);
    assert.equal(body, 'Chestnuts are back');
    // The browser sent its own origin, and preflighted the Authorization header.
    assert.ok(apiRequests.some((r) => r.method === 'OPTIONS' && r.origin === allowedOrigin));
    assert.ok(apiRequests.some((r) => r.method === 'GET' && r.url.startsWith('/v1/content/posts/')));
  });

  it('a page from an origin the store does not allow is refused by the browser', async () => {
    const { result, rendered } = await run(otherOrigin);
    assert.deepEqual(result, { refused: 'network_error', corsSuspected: true });
    assert.deepEqual(rendered, []);
    // The preflight was answered without Access-Control-Allow-Origin, so the GET was never sent.
    assert.ok(apiRequests.some((r) => r.method === 'OPTIONS' && r.origin === otherOrigin));
    assert.ok(!apiRequests.some((r) => r.method === 'GET'));
  });
});
