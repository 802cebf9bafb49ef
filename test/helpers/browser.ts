// What the browser suites share: Chromium at /usr/bin/chromium (the suite is skipped without it,
// unless REQUIRE_BROWSER=1 makes that a failure), launching it, the app listening on a loopback
// port of its own, and watching a page for what it should not do.
import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build, type BuildOptions } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { sqliteEngine } from './engines.js';
import { unusedPort } from './ports.js';
import { startTestApp, type TestApp } from './test-app.js';

export const CHROMIUM = '/usr/bin/chromium';
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

/** The `skip` of a browser suite: undefined when Chromium is there; throws under REQUIRE_BROWSER=1. */
export function browserSkipReason(suite: string): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} not found; install the Debian package "chromium" to run the browser tests`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  console.log(`# skipping ${suite}: ${reason}`);
  return reason;
}

/** Headless Chromium with a fresh temporary profile of its own (removed on close). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * A test app listening on a loopback port, on SQLite. The port is chosen before the app starts,
 * so PUBLIC_BASE_URL (and with it canonical links and srcsets) is the page's own origin.
 */
export async function startListeningApp(): Promise<{ t: TestApp; origin: string }> {
  const port = await unusedPort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await startTestApp(sqliteEngine, { PUBLIC_BASE_URL: origin });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, origin };
}

/** Records what a page did that it should not: CSP refusals, script errors, requests off this host. */
export function watchPage(page: Page, origin: string): string[] {
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

/** Waits until the image `selector` names has loaded (or already had). */
export async function imageLoaded(page: Page, selector: string): Promise<void> {
  await page
    .locator(selector)
    .evaluate((img: HTMLImageElement) =>
      img.complete ? undefined : new Promise((r) => img.addEventListener('load', r, { once: true })),
    );
}

/**
 * Opens `url` in a new page and waits for its script to set window.result. Returns the page (to
 * read more from, then close), the result, and the script errors seen so far (the array keeps
 * filling until the page closes).
 */
export async function runScenarioPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; result: unknown; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(url);
  await page.waitForFunction(() => 'result' in window, undefined, { timeout: 30_000 });
  const result = await page.evaluate(() => (window as unknown as { result?: unknown }).result);
  return { page, result, errors };
}

/** Bundles for a page (esbuild, an ES module for browsers) and returns the code. */
export async function bundleForBrowser(input: Pick<BuildOptions, 'entryPoints' | 'stdin'>): Promise<string> {
  const built = await build({
    ...input,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  return built.outputFiles[0]!.text;
}

/**
 * Answers the request from a site of the test: its page at /, and the scripts /sdk.js and
 * /scenario.js; 404 for anything else.
 */
export function answerSiteFile(
  req: IncomingMessage,
  res: ServerResponse,
  files: { page: string; sdk: string; scenario: string },
): void {
  const javascript = { 'content-type': 'text/javascript' };
  if (req.url === '/sdk.js') return void res.writeHead(200, javascript).end(files.sdk);
  if (req.url === '/scenario.js') return void res.writeHead(200, javascript).end(files.scenario);
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(files.page);
  res.writeHead(404).end();
}

/** Listens on a loopback port of its own; the server's origin. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server of the test and the connections the browser keeps open to it. */
export async function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
