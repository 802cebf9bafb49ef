// Lighthouse (the npm package) in headless Chromium, mobile, against the app on a loopback port:
// a post page with a cover and the blog index score SEO 100, Accessibility and Best Practices at
// least 95, Performance at least 90. Reports are written to test-artifacts/ for a person to read.
// Without /usr/bin/chromium the suite is skipped, unless REQUIRE_BROWSER=1 (CI) makes that a failure.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { unusedPort } from '../helpers/ports.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createPost, publish } from '../helpers/posts.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = 'test-artifacts';
const MINIMUM: Record<string, number> = { seo: 1, accessibility: 0.95, 'best-practices': 0.95, performance: 0.9 };

function skipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} not found; install the Debian package "chromium" to run the browser tests`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  console.log(`# skipping Lighthouse: ${reason}`);
  return reason;
}

async function uploadCover(t: TestApp, key: string): Promise<string> {
  const jpeg = await sharp({ create: { width: 1200, height: 630, channels: 3, background: { r: 40, g: 120, b: 90 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const boundary = `----lighthouse-${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cover.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    jpeg,
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
  return res.json().url;
}

const skip = skipReason();
describe('Lighthouse scores of the store front (mobile)', { skip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let debuggingPort: number;

  before(async () => {
    const port = await unusedPort();
    origin = `http://127.0.0.1:${port}`;
    // PUBLIC_BASE_URL is the address Lighthouse reads, so canonical links point to the page's own host.
    t = await startTestApp(sqlite, { PUBLIC_BASE_URL: origin });
    await t.app.listen({ port, host: '127.0.0.1' });
    mkdirSync(ARTIFACTS, { recursive: true });
    debuggingPort = await unusedPort();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debuggingPort}`],
    });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function audit(url: string, name: string) {
    const result = await lighthouse(url, {
      port: debuggingPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: Object.keys(MINIMUM),
      formFactor: 'mobile',
      // Simulated throttling computes the mobile timings from one unthrottled trace (Lantern),
      // instead of slowing the machine down while loading: on a test machine whose cores are
      // shared with other work, applied throttling would measure that work more than the page.
      throttlingMethod: 'simulate',
    });
    assert.ok(result, 'Lighthouse produced a report');
    writeFileSync(join(ARTIFACTS, `lighthouse-${name}.json`), JSON.stringify(result.lhr, null, 1));
    const failing: string[] = [];
    for (const [id, minimum] of Object.entries(MINIMUM)) {
      const category = result.lhr.categories[id];
      const score = category?.score ?? 0;
      if (score >= minimum) continue;
      const audits = (category?.auditRefs ?? [])
        .map((ref) => result.lhr.audits[ref.id])
        .filter((a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative')
        .map((a) => `${a.id} (${a.score}): ${a.displayValue ?? a.title}`);
      failing.push(`${id} ${score} < ${minimum}: ${audits.join('; ')}`);
    }
    assert.deepEqual(failing, [], `${name}: ${url}`);
  }

  it('a post page with a cover', async () => {
    const { store, key } = await t.tenant();
    const cover = await uploadCover(t, key);
    const post = await createPost(t, key, {
      title: '秋季菜單：南瓜湯與栗子蛋糕',
      summary: '這一季廚房裡的料理，從湯品到甜點。',
      body_html: `<h2>湯品</h2><p>${'南瓜湯以當季南瓜慢火熬煮，加入少許鮮奶油。'.repeat(6)}</p><ul><li>南瓜湯</li><li>栗子蛋糕</li></ul><blockquote><p>季節的味道。</p></blockquote>`,
      cover_image_url: cover,
    });
    assert.equal((await publish(t, key, post.id)).statusCode, 200);
    await audit(`${origin}/s/${store.handle}/blog/posts/${post.id}`, 'post');
  });

  it('the blog index', async () => {
    const { store, key } = await t.tenant();
    for (let i = 1; i <= 5; i++) {
      const post = await createPost(t, key, { title: `第 ${i} 篇文章`, summary: `第 ${i} 篇文章的摘要。` });
      assert.equal((await publish(t, key, post.id)).statusCode, 200);
    }
    await audit(`${origin}/s/${store.handle}/blog`, 'index');
  });
});
