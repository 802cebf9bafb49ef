// A real browser picks a variant from a post page's srcset: on a narrow screen the cover comes
// as the 640-pixel WebP variant (Chromium sends Accept: image/avif,image/webp,…), allowed by the
// page's CSP, with nothing requested off the service. Without /usr/bin/chromium the suite is
// skipped, unless REQUIRE_BROWSER=1 makes that a failure.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { unusedPort } from '../helpers/ports.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createPost, publish } from '../helpers/posts.js';
import { uploadPhoto } from '../api/media-variants-support.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

function skipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} not found; install the Debian package "chromium" to run the browser tests`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  return reason;
}

describe('responsive images in a real browser', { skip: skipReason() }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;

  before(async () => {
    const port = await unusedPort();
    origin = `http://127.0.0.1:${port}`;
    t = await startTestApp(sqlite, { PUBLIC_BASE_URL: origin });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('loads the cover variant that fits a narrow screen, as WebP, under the page CSP', async () => {
    const { store, key } = await t.tenant();
    const cover = await uploadPhoto(t, key, 1500, 1000);
    const post = await createPost(t, key, { title: 'Narrow', body_html: '<p>Text</p>', cover_image_url: cover.url });
    assert.equal((await publish(t, key, post.id)).statusCode, 200);

    // 400 CSS pixels at 1 device pixel each: the cover is 360 pixels wide (sizes), so 640w is the
    // first candidate dense enough.
    const page = await browser.newPage({ viewport: { width: 400, height: 800 }, deviceScaleFactor: 1 });
    const problems: string[] = [];
    page.on('console', (msg) => /Content Security Policy|Refused to/i.test(msg.text()) && problems.push(msg.text()));
    page.on('request', (req) => !req.url().startsWith(origin) && problems.push(`off the service: ${req.url()}`));
    const images: Array<{ url: string; type: string | undefined; body: Buffer }> = [];
    page.on('response', async (res) => {
      // The browser asks for /favicon.ico on its own; the service has none.
      if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) problems.push(`${res.status()} ${res.url()}`);
      if (res.request().resourceType() === 'image')
        images.push({ url: res.url(), type: res.headers()['content-type'], body: await res.body() });
    });
    assert.equal((await page.goto(`${origin}/s/${store.handle}/blog/posts/${post.id}`))?.status(), 200);
    await page
      .locator('img.cover')
      .evaluate((img: HTMLImageElement) =>
        img.complete ? undefined : new Promise((r) => img.addEventListener('load', r, { once: true })),
      );
    assert.equal(
      await page.locator('img.cover').evaluate((img: HTMLImageElement) => img.currentSrc),
      `${cover.url}?w=640`,
    );
    await page.waitForLoadState('networkidle');
    assert.equal(images.length, 1, 'one image request: the variant, not the full image as well');
    assert.equal(images[0].type, 'image/webp');
    const meta = await sharp(images[0].body).metadata();
    assert.deepEqual([meta.format, meta.width], ['webp', 640]);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
