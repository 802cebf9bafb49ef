// A real browser against the app on a loopback port: a published post page renders with its
// inline style allowed by the CSP and its cover loaded, its view beacon counts one view, and /docs renders the API reference
// from files served by the app itself. Screenshots go to test-artifacts/ for a person to look at.
// Without /usr/bin/chromium the suite is skipped, unless REQUIRE_BROWSER=1 (CI) makes that a failure.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { unusedPort } from '../helpers/ports.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createPost, publish } from '../helpers/posts.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = 'test-artifacts';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function skipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} not found; install the Debian package "chromium" to run the browser tests`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  console.log(`# skipping browser tests: ${reason}`);
  return reason;
}

async function uploadImage(t: TestApp, key: string): Promise<{ url: string }> {
  const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 30, g: 110, b: 190 } } })
    .png()
    .toBuffer();
  const boundary = `----storefront-${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.request({
    method: 'POST',
    url: '/v1/media/images',
    key,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  assert.ok(res.statusCode === 201 || res.statusCode === 200, res.body);
  return res.json();
}

/** Records what a page did that it should not: CSP refusals, script errors, requests off this host. */
function watch(page: Page, origin: string) {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text()))
      problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) problems.push(`request off this service: ${url}`);
  });
  return problems;
}

const skip = skipReason();
describe('store front and /docs in a real browser', { skip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;

  before(async () => {
    // The app needs its own address before it starts, for PUBLIC_BASE_URL.
    const port = await unusedPort();
    origin = `http://127.0.0.1:${port}`;
    t = await startTestApp(sqlite, { PUBLIC_BASE_URL: origin });
    await t.app.listen({ port, host: '127.0.0.1' });
    mkdirSync(ARTIFACTS, { recursive: true });
    // launch() gives the browser a fresh temporary profile of its own and removes it on close.
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows a published post with its styles and cover, and no policy refusals', async () => {
    const { store, key } = await t.tenant();
    const cover = await uploadImage(t, key);
    const post = await createPost(t, key, {
      title: 'Autumn <menu> & more',
      summary: 'Seasonal dishes from our kitchen',
      body_html:
        '<p>First paragraph with <strong>bold</strong> text.</p><ul><li>Pumpkin soup</li><li>Chestnut cake</li></ul>',
      cover_image_url: cover.url,
    });
    assert.equal((await publish(t, key, post.id)).statusCode, 200);

    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems = watch(page, origin);
    const beacon = page.waitForResponse((res) => res.url().endsWith(`/blog/posts/${post.id}/views`));
    const response = await page.goto(`${origin}/s/${store.handle}/blog/posts/${post.id}`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('h1').textContent(), 'Autumn <menu> & more');
    assert.equal(await page.title(), 'Autumn <menu> & more | Test Store');
    await page
      .locator('img.cover')
      .evaluate((img: HTMLImageElement) =>
        img.complete ? undefined : new Promise((r) => img.addEventListener('load', r, { once: true })),
      );
    // naturalWidth of an image chosen from a srcset is scaled to its layout width, so the
    // source and the decoded size are checked instead.
    assert.deepEqual(
      await page
        .locator('img.cover')
        .evaluate((img: HTMLImageElement) => [img.currentSrc, img.naturalWidth > 0, img.width > 0]),
      [cover.url, true, true],
      'the cover loaded under the CSP',
    );
    const fontSize = await page.locator('h1').evaluate((h1) => getComputedStyle(h1).fontSize);
    assert.equal(fontSize, '32px', 'the inline stylesheet applied: its hash matches the CSP');
    assert.equal((await beacon).status(), 204, 'the view beacon ran under the CSP');
    await t.ctx.storefront.views.flush();
    const api = await t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key });
    assert.equal(api.json().view_count, 1, 'one page load, one view');
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-post.png'), fullPage: true });

    await page.locator('header a').click();
    await page.waitForURL(`${origin}/s/${store.handle}/blog`);
    assert.equal(await page.locator('.posts h2 a').first().textContent(), 'Autumn <menu> & more');
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-index.png'), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('renders the API reference at /docs from local files, the endpoints listed', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    const problems = watch(page, origin);
    const response = await page.goto(`${origin}/docs`);
    assert.equal(response?.status(), 200);
    const postsPath = page.locator('.opblock-summary-path[data-path="/v1/blog/posts"]').first();
    await postsPath.waitFor({ timeout: 20_000 });
    assert.equal((await postsPath.textContent())?.replace(/\u200b/g, ''), '/v1/blog/posts');
    assert.ok(await page.getByText('Store Blog Content API').first().isVisible());
    assert.ok((await page.locator('.opblock-summary-path').count()) >= 10, 'every endpoint is listed');
    assert.equal(
      await page.locator('.opblock-summary-path[data-path^="/s/"], .opblock-summary-path[data-path^="/docs"]').count(),
      0,
      'pages are not API',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: false });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('/docs: Authorize with a bearer key, then Try it out calls this service and shows its answer', async () => {
    const { key } = await t.tenant();
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    const problems = watch(page, origin);
    await page.goto(`${origin}/docs`);
    const operation = page.locator('#operations-identity-getMe');
    await operation.waitFor({ timeout: 20_000 });
    await page.locator('.auth-wrapper .btn.authorize').click();
    await page.locator('.auth-container input').first().fill(key);
    await page.locator('.auth-container .btn.modal-btn.auth.authorize').first().click();
    await page.locator('.btn-done, .close-modal').first().click();
    if (!(await operation.locator('.try-out__btn').isVisible())) await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    const answer = page.waitForResponse((res) => res.url() === `${origin}/v1/me`);
    await operation.locator('.btn.execute').click();
    assert.equal((await answer).status(), 200, 'the key was sent and accepted');
    await operation.locator('.live-responses-table tbody .response-col_status').first().waitFor({ timeout: 10_000 });
    assert.match(
      (await operation.locator('.live-responses-table tbody .response-col_status').first().textContent()) ?? '',
      /200/,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it-out.png'), fullPage: false });
    assert.deepEqual(problems, []);
    await page.close();
  });
});
