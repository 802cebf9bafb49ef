// store-blog-sdk as someone outside this repository gets it: sdk/ copied to a temporary folder,
// `npm install` (its own devDependencies only) and `npm pack` there, the tarball installed into
// a fresh project, and used from ES modules and from CommonJS, type-checked by tsc --strict with
// exactOptionalPropertyTypes and without skipLibCheck (against Node's types, and against the DOM
// library alone for browsers), then run against a real server on this Node, Node 22 and Node 24.
// Also: a workspace root that prunes its dev dependencies keeps a working SDK. Needs the npm
// registry; slow tier.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sqliteEngine as sqlite } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const SDK = fileURLToPath(new URL('../../sdk/', import.meta.url));
const NPM_FLAGS = ['--no-audit', '--no-fund', '--loglevel=error'];

async function npm(cwd: string, ...args: string[]): Promise<string> {
  try {
    return (await run('npm', [...args], { cwd, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NODE_ENV: '' } }))
      .stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(' ')} in ${cwd} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, {
      cause: err,
    });
  }
}

async function node(
  cwd: string,
  file: string,
  env: Record<string, string>,
  runtime = process.execPath,
): Promise<string> {
  return (await run(runtime, [file], { cwd, env: { ...process.env, ...env } })).stdout;
}

/** sdk/ without what a build makes or an install adds. */
function copySdk(to: string): void {
  cpSync(SDK, to, { recursive: true, filter: (src) => !/[\\/](dist|node_modules)$/.test(src) });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022'],
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    outDir: 'build',
  },
  include: ['esm.mts', 'cjs.cts'],
};

// What an integrator writes: every line type-checked, the @ts-expect-error lines must be errors.
const ESM_SOURCE = `
import { BlogApiError, BlogClient, BlogConnectionError, verifyWebhook, type FeedEvent, type PageLimit, type Post, type SdkErrorCode, type Scope, type WebhookEvent } from 'store-blog-sdk';

const blog = new BlogClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY!, timeoutMs: 10_000, maxRetryDelayMs: 2_000 });
const me = await blog.me({ timeoutMs: 5_000 });
const scopes: Scope[] = me.scopes;
const post: Post = await blog.posts.create({ title: 'From the tarball (ESM, ' + process.env.RUN + ')', body_html: '<p>packed</p>' }, { idempotencyKey: 'package-test-esm-' + process.env.RUN });
const published: Post = await blog.posts.publish(post.id);
const copy = structuredClone(published);
const updated = await blog.posts.update(post.id, { summary: 'via a copy' }, { ifMatch: copy });
const stale = await blog.posts.update(post.id, { summary: 'stale' }, { ifMatch: copy }).catch((e: unknown) => e);
const code: SdkErrorCode | undefined = stale instanceof BlogApiError ? stale.code : stale instanceof BlogConnectionError ? stale.code : undefined;
const limit: PageLimit = 50;
const listed = await blog.posts.list({ limit }).autoPagingToArray({ limit: 10 });

// @ts-expect-error the page size is 1 to 50
await blog.posts.listPage({ limit: 100 }).catch(() => undefined);
// @ts-expect-error no such event
const badEvents: Parameters<typeof blog.webhooks.create>[0] = { url: 'https://hooks.example.com', events: ['post.publishd'] };
// @ts-expect-error no such scope
const badScope: Scope = 'write_everything';
// @ts-expect-error a list item carries no ETag
await blog.posts.update(post.id, { summary: 'x' }, { ifMatch: listed[0]! }).catch(() => undefined);
const notAwaited = (): { type: string } =>
  // @ts-expect-error verifyWebhook is async
  verifyWebhook('', new Headers(), 'whsec_AAAA');
void badEvents; void badScope; void notAwaited;

// Events: one union on \`type\`; narrowing by type types \`data\`, no cast.
function describeEvent(event: FeedEvent): string {
  const same: WebhookEvent = event; // a feed event is a webhook event
  void same;
  switch (event.type) {
    case 'post.published':
      return 'published ' + event.data.title + ' (' + event.data.status + ')';
    case 'post.deleted':
      return 'deleted post ' + event.data.id.toFixed(0);
    default:
      return event.type + ' #' + event.sequence;
  }
}
const stop = new AbortController();
const described: string[] = [];
for await (const event of blog.events.follow({ types: ['post.published', 'category.*'], signal: stop.signal, pollIntervalMs: 50 })) {
  // The filter types the events: only post.published and category events come.
  const type: 'post.published' | 'category.created' | 'category.updated' | 'category.deleted' = event.type;
  void type;
  described.push(describeEvent(event));
  stop.abort();
}
// @ts-expect-error no such event type
blog.events.follow({ types: ['post.publishd'] });
// @ts-expect-error a prefix is a resource and .*
blog.events.follow({ types: ['posts.*'] });

console.log(JSON.stringify({ handle: me.store.handle, scopes, etag: updated.etag !== published.etag, code, listed: listed.length, described }));
`;

const CJS_SOURCE = `
import sdk = require('store-blog-sdk');
import nodeSdk = require('store-blog-sdk/node');
import { createHmac } from 'node:crypto';

async function main(): Promise<void> {
  const blog = new sdk.BlogClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
  const post = await blog.posts.create({ title: 'From the tarball (CommonJS, ' + process.env.RUN + ')', body_html: '<p>packed</p>' });
  const published = await blog.posts.publish(post.id, { ifMatch: { ...post } });
  const secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
  const body = JSON.stringify({ type: 'webhook.test', id: 'evt_1', occurred_at: '2026-11-26T00:00:00Z', data: {} });
  const signature = createHmac('sha256', Buffer.alloc(32, 1)).update('msg_1.1790000000.' + body).digest('base64');
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1790000000', 'webhook-signature': 'v1,' + signature };
  const event = nodeSdk.verifyWebhookSync(body, headers, secret, { now: 1_790_000_000_000 });
  const asyncEvent = await sdk.verifyWebhook(body, headers, secret, { now: 1_790_000_000_000 });
  console.log(JSON.stringify({ status: published.status, event: event.type, asyncEvent: asyncEvent.type, apiVersion: sdk.API_VERSION, node: process.versions.node.split('.')[0] }));
}
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
`;

// An older CommonJS project resolving as Node 10 did (no "exports"): the ./node entry still has types.
const NODE10_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'CommonJS',
    moduleResolution: 'node10',
    lib: ['ES2022'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  include: ['node10.ts'],
};
const NODE10_SOURCE = `
import { BlogClient, type FeedEvent } from 'store-blog-sdk';
import { listen, verifyWebhookSync, type ListenOptions } from 'store-blog-sdk/node';
export const blog = new BlogClient({ baseUrl: 'http://127.0.0.1', apiKey: 'svc_live_x_y' });
export const options: ListenOptions = { baseUrl: 'http://127.0.0.1', apiKey: 'k', forwardTo: 'http://127.0.0.1/hooks', stateFile: 's.json', types: ['post.*'] };
export const run: typeof listen = listen;
export const verify = (body: string): FeedEvent['type'] | 'webhook.test' => verifyWebhookSync(body, {}, 'whsec_AAAA').type;
`;

// A browser project: the DOM library and no Node types at all.
const BROWSER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    noEmit: true,
  },
  include: ['browser.ts'],
};
const BROWSER_SOURCE = `
import { BlogClient, verifyWebhook } from 'store-blog-sdk';
const blog = new BlogClient({ baseUrl: location.origin, apiKey: 'svc_live_x_y' });
const controller = new AbortController();
export const me = blog.me({ signal: controller.signal });
export const event = verifyWebhook(new Uint8Array(), new Headers(), ['whsec_AAAA']);
`;

describe('store-blog-sdk packed and installed outside the repository', () => {
  let work: string;
  let t: TestApp;
  let baseUrl: string;
  let key: string;
  let tarball: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'store-blog-sdk-package-'));
    t = await startTestApp(sqlite);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    key = (await t.tenant()).key;
  });
  after(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('builds and packs from a copy with only its own devDependencies', async () => {
    const copy = join(work, 'sdk');
    copySdk(copy);
    await npm(copy, 'install', ...NPM_FLAGS);
    const [packed] = JSON.parse(await npm(copy, 'pack', '--json', '--pack-destination', work, ...NPM_FLAGS)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    tarball = join(work, packed!.filename);
    const files = packed!.files.map((f) => f.path);
    for (const required of [
      'LICENSE',
      'README.md',
      'CHANGELOG.md',
      'package.json',
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
      'dist/esm/node.js',
      'dist/cjs/node.js',
    ]) {
      assert.ok(files.includes(required), `${required} is in the package`);
    }
    assert.deepEqual(files.filter((f) => !/^(dist|src)\//.test(f)).sort(), [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'package.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
    assert.equal(manifest.license, 'MIT');
    assert.equal(manifest.sideEffects, false);
    assert.match(manifest.version, /^1\.\d+\.\d+$/, 'major 1 speaks /v1');
    assert.equal(manifest.scripts.prepare, undefined, 'nothing to build on install');
    assert.match(
      readFileSync(join(copy, 'CHANGELOG.md'), 'utf8'),
      new RegExp(`## ${manifest.version.replace(/\./g, '\\.')}`),
    );
  });

  it('every source map points at a file in the package; the main entry imports nothing of Node', () => {
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    return run('tar', ['-xzf', tarball, '-C', unpacked]).then(() => {
      const pkg = join(unpacked, 'package');
      const maps = filesUnder(pkg).filter((f) => f.endsWith('.map'));
      assert.ok(maps.length > 10);
      for (const map of maps) {
        const { sources } = JSON.parse(readFileSync(join(pkg, map), 'utf8')) as { sources: string[] };
        for (const source of sources)
          assert.ok(existsSync(resolve(dirname(join(pkg, map)), source)), `${map} → ${source}`);
      }
      // Node's own modules only behind store-blog-sdk/node and the store-blog command (listen).
      for (const file of filesUnder(join(pkg, 'dist')).filter(
        (f) => f.endsWith('.js') && !/(^|\/)(node|listen|cli)\.js$/.test(f),
      )) {
        assert.doesNotMatch(
          readFileSync(join(pkg, 'dist', file), 'utf8'),
          /\bnode:|require\("(crypto|buffer|http)"\)|from "(crypto|buffer)"/,
          file,
        );
      }
    });
  });

  it('a fresh project uses it from ES modules and CommonJS under tsc --strict, and against the DOM library alone; on Node 22 and 24 too', async () => {
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'commonjs' }),
    );
    // Node 22 and 24 (from the registry's `node` package) run the same build as this Node.
    await npm(
      app,
      'install',
      tarball,
      'typescript@5.9',
      '@types/node@22',
      'node22@npm:node@22',
      'node24@npm:node@24',
      ...NPM_FLAGS,
    );
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG, null, 2));
    writeFileSync(join(app, 'esm.mts'), ESM_SOURCE);
    writeFileSync(join(app, 'cjs.cts'), CJS_SOURCE);
    writeFileSync(join(app, 'tsconfig.browser.json'), JSON.stringify(BROWSER_TSCONFIG, null, 2));
    writeFileSync(join(app, 'browser.ts'), BROWSER_SOURCE);
    writeFileSync(join(app, 'tsconfig.node10.json'), JSON.stringify(NODE10_TSCONFIG, null, 2));
    writeFileSync(join(app, 'node10.ts'), NODE10_SOURCE);
    const tsc = join(app, 'node_modules/typescript/bin/tsc');
    for (const project of ['tsconfig.json', 'tsconfig.browser.json', 'tsconfig.node10.json']) {
      await run(process.execPath, [tsc, '-p', project], { cwd: app }).catch((err: { stdout?: string }) =>
        assert.fail(`tsc -p ${project}:\n${err.stdout}`),
      );
    }

    const runtimes = [
      process.execPath,
      join(app, 'node_modules/node22/bin/node'),
      join(app, 'node_modules/node24/bin/node'),
    ];
    const majors: string[] = [];
    for (const [i, runtime] of runtimes.entries()) {
      const env = { BASE_URL: baseUrl, API_KEY: key, RUN: String(i) };
      const esm = JSON.parse(await node(app, 'build/esm.mjs', env, runtime));
      assert.equal(esm.etag, true);
      assert.equal(esm.code, 'precondition_failed');
      assert.ok(esm.scopes.includes('write_blog'));
      assert.ok(esm.listed >= 1);
      assert.equal(esm.described.length, 1);
      assert.match(esm.described[0], /^published |^category\./);
      const cjs = JSON.parse(await node(app, 'build/cjs.cjs', env, runtime));
      majors.push(cjs.node);
      assert.deepEqual(cjs, {
        status: 'published',
        event: 'webhook.test',
        asyncEvent: 'webhook.test',
        apiVersion: '2026-09-14',
        node: cjs.node,
      });
    }
    assert.deepEqual(majors.slice(1), ['22', '24']);
    // The two entry points are the same package: require() finds the CommonJS build.
    const resolved = (
      await run(
        process.execPath,
        ['-p', "require.resolve('store-blog-sdk') + ' ' + require('store-blog-sdk/package.json').version"],
        { cwd: app },
      )
    ).stdout.trim();
    assert.match(resolved, /dist[\\/]cjs[\\/]index\.js 1\.\d+\.\d+$/);
  });

  it('a workspace root that prunes its dev dependencies keeps a built, working SDK', async () => {
    const root = join(work, 'workspace');
    mkdirSync(root);
    copySdk(join(root, 'sdk'));
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({
        name: 'workspace-root',
        private: true,
        type: 'module',
        workspaces: ['sdk'],
        scripts: { prepare: 'npm run build -w store-blog-sdk' },
      }),
    );
    await npm(root, 'install', ...NPM_FLAGS);
    await npm(root, 'prune', '--omit=dev', ...NPM_FLAGS);
    assert.equal(existsSync(join(root, 'node_modules/typescript')), false, 'the dev dependencies are gone');
    writeFileSync(
      join(root, 'check.mjs'),
      "import { BlogClient } from 'store-blog-sdk'; console.log(typeof BlogClient);\n",
    );
    assert.equal((await node(root, 'check.mjs', {})).trim(), 'function');
  });
});
