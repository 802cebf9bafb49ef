// `npm run bench -- --only neighbours`: can one store slow another? On one API server, store A
// runs at its key's limits (600 reads and 120 writes a minute, 8 at once: the defaults) with the
// costliest requests it is allowed — the largest JSON bodies of many values, the widest searches
// over its large posts, category renames fanned out to 10 webhook endpoints that never answer —
// while store B reads one post over 4 connections and sends itself a webhook test event every
// 250 ms. B's read p50/p99 and B's webhook latency (from the test call's answer to the receiver's
// arrival) are measured quiet, then with A running. Then the `bounds` rows: the API's CPU per
// request at the largest allowed bodies. Then the image rows (image-neighbours.ts): B's image file
// and post reads while A uploads the costliest images it may. NEIGHBOURS=images (or =json) runs
// only those rows. See docs/performance.md, "Noisy neighbours".
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { SCOPES } from '../../src/modules/keys/index.js';
import { searchText } from '../../src/modules/posts/post-search.js';
import { storeSearchTokens } from '../../src/lib/search-text.js';
import { postBodyCeiling } from '../../src/lib/request-bounds.js';
import type { BenchOptions } from './options.js';
import { spawn } from 'node:child_process';
import { readCpuSeconds, ROOT, startApiServer, type RunningServer } from './processes.js';
import * as scenario from './scenarios.js';
import { articleHtml, createBenchDatabase } from './seed.js';
import { wideBody } from './wide-body.js';
import { imageNeighbourRows } from './image-neighbours.js';

const A_POSTS = 2000;
const B_POSTS = 100;
const WEBHOOK_EVERY_MS = 250;
/** MAX_JSON_BODY_BYTES's default: the largest body the post routes take. */
const MAX_BODY = 16 * 1024 * 1024;
/** The widest search q allows (200 characters): 40 distinct three-letter terms, each in many of A's posts. */
const WIDE_Q = (() => {
  const words =
    'lorem ipsum dolor sit amet consectetur adipiscing elit sed eiusmod tempor incididunt labore dolore magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo consequat duis aute irure reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat proident'.split(
      ' ',
    );
  const terms = new Set<string>();
  for (const w of words) for (let i = 0; i + 3 <= w.length && terms.size < 40; i += 3) terms.add(w.slice(i, i + 3));
  return [...terms].slice(0, 40).join(' ');
})();

interface Stores {
  aKey: string;
  bKey: string;
  /** A store whose body_max_bytes lets a MAX_JSON_BODY_BYTES post body in: the bounds rows' largest bodies. */
  cKey: string;
  bPostIds: number[];
}

/** Store C's limits.body_max_bytes: the smallest whose post-body ceiling reaches 16 MiB. */
const C_BODY_MAX_BYTES = 2.5 * 1024 * 1024;
/** The longest post body a default store (body_max_bytes 1 MiB) reads: what A's largest bodies are. */
const A_LARGEST_BODY = postBodyCeiling(1024 * 1024);

async function seed(databaseUrl: string, database: never, workDir: string, engine: string): Promise<Stores> {
  const ctx = await createContext({
    ...loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', MEDIA_DIR: join(workDir, 'media') }),
    database,
  });
  try {
    const a = await ctx.stores.create({ handle: 'noisy-a', name: 'Noisy A', categories: true });
    const b = await ctx.stores.create({ handle: 'quiet-b', name: 'Quiet B' });
    const c = await ctx.stores.create({ handle: 'wide-c', name: 'Wide C' });
    await ctx.stores.update(c.handle, { body_max_bytes: C_BODY_MAX_BYTES });
    // A: the default limits of a key. B and C: room for the measurement, so they measure latency and work, not refusals.
    const aKey = (await ctx.keys.issue({ storeId: a.id, application: 'noisy', scopes: [...SCOPES] })).key;
    const roomy = async (storeId: number, application: string) =>
      (
        await ctx.keys.issue({
          storeId,
          application,
          scopes: [...SCOPES],
          readPerMinute: 10_000_000,
          writePerMinute: 10_000_000,
          concurrency: 1000,
        })
      ).key;
    const bKey = await roomy(b.id, 'quiet');
    const cKey = await roomy(c.id, 'bounds');
    const now = Date.now();
    const insert = async (storeId: number, count: number, bytes: number) => {
      const ids: number[] = [];
      for (let from = 0; from < count; from += 200) {
        await ctx.db.transaction().execute(async (trx) => {
          const rows = Array.from({ length: Math.min(200, count - from) }, (_, k) => {
            const n = from + k;
            return {
              store_id: storeId,
              title: `Post ${n} lorem ipsum`,
              summary: null,
              body_html: articleHtml(bytes, n + 1),
              warnings: '[]',
              cover_image_id: null,
              default_category_id: null,
              published_at: now,
              view_count: 0,
              created_at: now - n * 1000,
              updated_at: now - n * 1000,
            };
          });
          const got = (await trx.insertInto('posts').values(rows).returning('id').execute()).map((r) => r.id);
          const texts = rows.map((r) => searchText(r.title, null, r.body_html));
          await trx
            .insertInto('post_search')
            .values(
              got.map((id, k) =>
                engine === 'postgres'
                  ? { post_id: id, store_id: storeId, text: texts[k] }
                  : { rowid: id, text: texts[k] },
              ) as never,
            )
            .execute();
          if (engine === 'sqlite')
            await trx
              .insertInto('post_search_store')
              .values(got.map((id, k) => ({ rowid: id, tokens: storeSearchTokens(storeId, texts[k]) })))
              .execute();
          ids.push(...got);
        });
      }
      return ids;
    };
    await insert(a.id, A_POSTS, 20 * 1024);
    const bPostIds = await insert(b.id, B_POSTS, 2 * 1024);
    return { aKey, bKey, cKey, bPostIds };
  } finally {
    await ctx.close();
  }
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function call(
  api: RunningServer,
  key: string,
  method: string,
  path: string,
  body?: string | object,
  headers: Record<string, string> = {},
) {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: text,
  });
  // The fields read below, after a success status; null when the body is not JSON.
  return {
    status: res.status,
    json: (await res.json().catch(() => null)) as { id: number | string; event_id: string },
  };
}

const mib = (bytes: number) => (bytes / 1048576).toFixed(0);

/**
 * A post body of one long body_html string just under `bytes` (the largest a post route takes),
 * with `escape` (JSON escape text) at its end: an escape that could spell a lone surrogate makes
 * the server walk every string for one.
 */
function htmlBody(bytes: number, escape: string): string {
  const paragraph = '<p>Lorem ipsum dolor sit amet, café crème, 巧克力蛋糕.</p>';
  const room = bytes - 200;
  const html = paragraph.repeat(Math.floor(room / Buffer.byteLength(paragraph)));
  return `{"title":"Largest","body_html":"${html}${escape}"}`;
}

/**
 * One request over a plain socket: the answer may come, and the server close the connection,
 * before the whole body is sent (a refusal at the first byte past a limit); what was read of the
 * answer is kept whatever happens to the rest of the upload.
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; bytes: number }> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const head = [
      `${method} ${pathname}${search} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      'Connection: close',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${Buffer.byteLength(body)}`,
    ];
    socket.on('data', (d: Buffer) => chunks.push(d));
    const finish = () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const bodyStart = text.indexOf('\r\n\r\n');
      resolve({ status, bytes: bodyStart === -1 ? 0 : text.length - bodyStart - 4 });
    };
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    // No half-close: the server closes after its answer (Connection: close). A FIN sent with the
    // body could end the exchange before a slow answer was written.
    socket.write(body);
  });
}

export async function runNeighbours(options: BenchOptions, log: (text: string) => void): Promise<string[]> {
  const db = await createBenchDatabase(options.engine, options.postgresUrl);
  const servers: Server[] = [];
  let api: RunningServer | null = null;
  const stopLoops: Array<() => void> = [];
  try {
    const t0 = Date.now();
    const stores = await seed(db.database.url, db.database as never, db.workDir, options.engine);
    log(
      `seeded A (${A_POSTS} posts of 20 KB) and B (${B_POSTS} posts) on ${options.engine} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    // B's receiver notes when each event arrives; A's receivers accept and never answer.
    const arrivedAt = new Map<string, number>();
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrivedAt.set(String(req.headers['webhook-id']), performance.now());
        res.end('ok');
      });
    });
    servers.push(receiver);
    const receiverUrl = await listen(receiver);
    const hanging = createServer((req) => req.resume());
    servers.push(hanging);
    const hangingUrl = await listen(hanging);

    api = await startApiServer({
      mode: options.server,
      appDir: options.app,
      databaseUrl: db.database.url,
      mediaDir: join(db.workDir, 'media'),
      cpuProfDir: options.cpuProf,
      readCacheMb: options.readCacheMb,
      logLevel: options.logLevel,
      redisUrl: options.redisUrl,
      logFile: join(db.workDir, 'api-neighbours.log'),
      extraEnv: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' },
    });
    const server = api;
    for (let i = 0; i < 10; i++) {
      const r = await call(server, stores.aKey, 'POST', '/v1/webhooks', { url: `${hangingUrl}/a${i}`, events: ['*'] });
      if (r.status !== 201) throw new Error(`A's endpoint: ${r.status} ${JSON.stringify(r.json)}`);
    }
    const bEndpoint = await call(server, stores.bKey, 'POST', '/v1/webhooks', {
      url: `${receiverUrl}/b`,
      events: ['webhook.test'],
    });
    if (bEndpoint.status !== 201)
      throw new Error(`B's endpoint: ${bEndpoint.status} ${JSON.stringify(bEndpoint.json)}`);
    const category = await call(
      server,
      stores.aKey,
      'POST',
      '/v1/blog/categories',
      { name: 'Renamed' },
      { 'idempotency-key': 'neighbours-cat' },
    );
    if (category.status !== 201) throw new Error(`A's category: ${category.status} ${JSON.stringify(category.json)}`);
    const largeBody = wideBody(MAX_BODY);
    const smallBody = wideBody(64 * 1024);
    const aLargest = wideBody(A_LARGEST_BODY);
    stopLoops.length = 0;

    /** Store A's load, in a process of its own; resolves with its answers' counts once stopped. */
    const startA = async (loops = process.env.NOISY_LOOPS) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'noisy-store.ts')], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          API_URL: server.url,
          API_KEY: stores.aKey,
          CATEGORY_ID: String(category.json.id),
          WIDE_Q,
          LARGEST_BODY: String(A_LARGEST_BODY),
          MAX_BODY: String(MAX_BODY),
          ...(loops ? { NOISY_LOOPS: loops } : {}),
          ...(process.env.NOISY_IGNORE_LIMITS ? { NOISY_IGNORE_LIMITS: process.env.NOISY_IGNORE_LIMITS } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('ready') && resolve()));
      return async () => {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
        // The line after the 'ready' line: the answers' counts.
        return JSON.parse(out.slice(out.indexOf('\n') + 1).trim() || '{}') as Record<string, number>;
      };
    };
    let statuses: Record<string, number> = {};

    const phase = async (noisy: boolean) => {
      const sentAt = new Map<string, number>();
      let webhooks = true;
      const hooks = (async () => {
        while (webhooks) {
          const r = await call(server, stores.bKey, 'POST', `/v1/webhooks/${bEndpoint.json.id}/test`);
          if (r.status === 202 || r.status === 200 || r.status === 201) sentAt.set(r.json.event_id, performance.now());
          await new Promise((resolve) => setTimeout(resolve, WEBHOOK_EVERY_MS));
        }
      })();
      const stopA = noisy ? await startA() : null;
      const cpuBefore = readCpuSeconds(server.pid);
      const label = noisy ? 'B, with A at its limits' : 'B, quiet';
      log(`  ${label}: ${options.duration} s`);
      const reads = await scenario.measure(
        server,
        scenario.getPost({ key: stores.bKey, postIds: stores.bPostIds, bodyBytes: 2048 }),
        4,
        options.duration,
      );
      webhooks = false;
      await hooks;
      const apiCpu = readCpuSeconds(server.pid) - cpuBefore;
      if (stopA) statuses = await stopA();
      // Wait (up to 20 s) for B's last events to arrive.
      const deadline = performance.now() + 20_000;
      while ([...sentAt.keys()].some((id) => !arrivedAt.has(id)) && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const latencies = [...sentAt].map(([id, at]) => (arrivedAt.get(id) ?? Infinity) - at);
      return {
        label,
        reads,
        apiCpu,
        hookP50: percentile(latencies, 50),
        hookP99: percentile(latencies, 99),
        hooks: latencies.length,
        lost: latencies.filter((l) => l === Infinity).length,
      };
    };

    const parts = process.env.NEIGHBOURS ?? 'json,images';
    const imageRows = () =>
      imageNeighbourRows({
        server,
        bKey: stores.bKey,
        bPostIds: stores.bPostIds,
        durationSeconds: options.duration,
        startA: (loops) => startA(loops),
        log,
      });
    if (!parts.includes('json')) return await imageRows();
    const quiet = await phase(false);
    const noisy = await phase(true);
    const lines = [
      `Noisy neighbours (${options.engine}, ${options.duration} s per phase; B: GET /v1/blog/posts/{id} × 4 connections, a webhook test event every ${WEBHOOK_EVERY_MS} ms)`,
      '| phase | B read req/s | B read p50 ms | B read p99 ms | B webhook p50 ms | B webhook p99 ms | B webhooks (not arrived) | API CPU s |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    ];
    for (const p of [quiet, noisy]) {
      lines.push(
        `| ${p.label} | ${Math.round(p.reads.rps)} | ${p.reads.p50} | ${p.reads.p99} | ${p.hookP50.toFixed(0)} | ${p.hookP99.toFixed(0)} | ${p.hooks} (${p.lost}) | ${p.apiCpu.toFixed(1)} |`,
      );
    }
    lines.push(
      `A's answers while running: ${Object.entries(statuses)
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}`,
    );
    const readRatio = noisy.reads.p99 / Math.max(quiet.reads.p99, 1);
    lines.push(
      `targets: B read p99 ≤ 2 × quiet: ${readRatio.toFixed(2)} × — ${readRatio <= 2 ? 'met' : 'MISSED'}; B webhook p99 < 2000 ms: ${noisy.hookP99.toFixed(0)} ms — ${noisy.hookP99 < 2000 ? 'met' : 'MISSED'}`,
    );

    if (parts.includes('images')) lines.push('', ...(await imageRows()));

    // Bounds: the API's CPU per request at the largest allowed bodies, one at a time.
    lines.push(
      '',
      'Work per request at the largest allowed bodies (one at a time, server CPU per request)',
      '| request | answer | answer bytes | CPU ms/request |',
      '|---|---|---:|---:|',
    );
    const deep = `{"title":"t","body_html":"b","x":${'['.repeat(MAX_BODY / 2 - 40)}${']'.repeat(MAX_BODY / 2 - 40)}}`;
    // The 16 MiB rows go to store C, whose body_max_bytes lets them in; a default store refuses
    // them by their length before reading them (the first row), and reads at most A's largest.
    // A body may depend on the round, so that a create is not refused as a duplicate of the one before.
    const bounds: Array<[string, string, string, string | ((round: number) => string), string?]> = [
      ['POST /v1/blog/posts, 16 MiB, default store (refused by its length)', 'POST', '/v1/blog/posts', largeBody],
      [
        `POST /v1/blog/posts, ${mib(A_LARGEST_BODY)} MiB of 1-value fields, default store (its largest)`,
        'POST',
        '/v1/blog/posts',
        aLargest,
      ],
      ['POST /v1/blog/posts, 16 MiB of 1-value fields', 'POST', '/v1/blog/posts', largeBody, stores.cKey],
      ['POST /v1/blog/posts, 16 MiB of nested arrays', 'POST', '/v1/blog/posts', deep, stores.cKey],
      [
        'POST /v1/blog/posts, 16 MiB body_html (one string, some non-ASCII)',
        'POST',
        '/v1/blog/posts',
        htmlBody(MAX_BODY, ''),
        stores.cKey,
      ],
      [
        'POST /v1/blog/posts, 16 MiB body_html with an escaped surrogate pair',
        'POST',
        '/v1/blog/posts',
        htmlBody(MAX_BODY, '\\ud83d\\ude00'),
        stores.cKey,
      ],
      [
        'POST /v1/blog/posts, 10,000 unknown fields',
        'POST',
        '/v1/blog/posts',
        `{"title":"t","body_html":"b",${Array.from({ length: 9990 }, (_, i) => `"f${i}":1`).join(',')}}`,
      ],
      [
        "POST /v1/blog/posts, body_html one unbroken run of 1 MiB (a default store's body_max_bytes)",
        'POST',
        '/v1/blog/posts',
        (round) => JSON.stringify({ title: `run ${round}`, body_html: `<p>${'x'.repeat(1024 * 1024 - 7)}</p>` }),
      ],
      [
        'POST /v1/blog/posts, body_html one unbroken CJK run of 200 KB',
        'POST',
        '/v1/blog/posts',
        (round) =>
          JSON.stringify({ title: `run ${round}`, body_html: `<p>${'文'.repeat(Math.floor((200 * 1024) / 3))}</p>` }),
      ],
      [
        'POST /v1/blog/posts, one unknown field whose name is 6 MiB (the answer stays small)',
        'POST',
        '/v1/blog/posts',
        `{"title":"t","body_html":"b","${'n'.repeat(6 * 1024 * 1024)}":1}`,
        stores.cKey,
      ],
      ['POST /v1/blog/categories, 64 KiB of 1-value fields', 'POST', '/v1/blog/categories', smallBody],
      [
        'GET /v1/blog/posts?q=<40 terms> (A: 2,000 posts of 20 KB)',
        'GET',
        `/v1/blog/posts?q=${encodeURIComponent(WIDE_Q)}`,
        '',
        stores.aKey,
      ],
    ];
    for (const [label, method, path, body, key = stores.bKey] of bounds) {
      const N = 10;
      const before = readCpuSeconds(server.pid);
      let status = 0;
      let bytes = 0;
      for (let i = 0; i < N; i++) {
        const res = await send(
          `${server.url}${path}`,
          method,
          {
            authorization: `Bearer ${key}`,
            'idempotency-key': `bound-${i}-${Math.random()}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          typeof body === 'function' ? body(i) : body,
        );
        status = res.status;
        bytes = res.bytes;
      }
      const cpuMs = ((readCpuSeconds(server.pid) - before) * 1000) / N;
      lines.push(
        `| ${label} | ${status === 0 ? 'no answer read (the connection was closed mid-upload)' : status} | ${bytes} | ${cpuMs.toFixed(1)} |`,
      );
    }
    return lines;
  } finally {
    for (const stop of stopLoops.splice(0)) stop();
    if (api) await api.stop();
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
    await db.drop();
  }
}
