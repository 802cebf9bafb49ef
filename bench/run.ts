// `npm run bench`: seeds a store, starts the API and a bare node:http ceiling as separate
// processes, drives them over loopback with autocannon and prints one table.
// See docs/performance.md for what it measures and the figures from a run.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { makePhotoJpeg } from './lib/jpeg.js';
import { parseOptions, USAGE, UsageError, wants, type BenchOptions } from './lib/options.js';
import { memoryAfterGc, readMemory, ROOT, startApiServer, startBareServer, type MemoryAfterGc, type RunningServer } from './lib/processes.js';
import { formatTable, type Row } from './lib/report.js';
import * as scenario from './lib/scenarios.js';
import { createBenchDatabase, seedDatabase, type BenchDatabase } from './lib/seed.js';

const log = (text: string) => process.stderr.write(`${text}\n`);

const READS = [
  { name: 'get', label: 'GET /v1/blog/posts/{id}', spec: scenario.getPost },
  { name: 'list', label: 'GET /v1/blog/posts?limit=20', spec: scenario.listPosts },
  { name: 'walk', label: 'GET /v1/blog/posts (cursor walk)', spec: scenario.pagedWalk },
  { name: 'me', label: 'GET /v1/me', spec: scenario.me },
] as const;

interface Results {
  options: BenchOptions;
  machine: { cpus: number; node: string };
  rows: Row[];
  rssAfterRepetitionMb: number[];
  /** Highest VmRSS sampled during each repetition of the read set. */
  rssPeakPerRepetitionMb: number[];
  /** Live memory after a full collection at the end of each repetition of the read set. */
  afterGcPerRepetition: MemoryAfterGc[];
  serverPeakMb: number | null;
  targets: string[];
}

function median<T>(items: T[], by: (t: T) => number): T {
  const sorted = [...items].sort((a, b) => by(a) - by(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** One real request shaped like the scenario's first, so a broken setup stops with its answer. */
async function probe(server: RunningServer, spec: scenario.LoadSpec, expected: number[]): Promise<string> {
  const first = spec.requests?.[0] ?? {};
  let req = { method: spec.method ?? 'GET', path: spec.path ?? '/', headers: { ...(spec.headers ?? {}) }, body: spec.body, ...first };
  if (first.setupRequest) req = { ...req, ...(first.setupRequest({ ...req }, { ...(spec.initialContext ?? {}) }) ?? {}) };
  const body = typeof req.body === 'string' || req.body === undefined ? req.body : new Uint8Array(req.body);
  const res = await fetch(`${server.url}${req.path}`, { method: req.method, headers: { ...req.headers, ...first.headers }, body });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${req.method} ${req.path} answered ${res.status}: ${text.slice(0, 500)}`);
  return text;
}

async function run(options: BenchOptions): Promise<Results> {
  if (options.build) {
    log('building (npm run build)…');
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error('npm run build failed; fix it or run with --server source');
  }
  const results: Results = { options, machine: { cpus: cpus().length, node: process.version }, rows: [], rssAfterRepetitionMb: [], rssPeakPerRepetitionMb: [], afterGcPerRepetition: [], serverPeakMb: null, targets: [] };
  const db: BenchDatabase = await createBenchDatabase(options.engine, options.postgresUrl);
  const servers: RunningServer[] = [];
  const stopAll = async () => {
    for (const s of servers.splice(0)) await s.stop();
  };
  const interrupted = () => void stopAll().finally(() => db.drop().finally(() => process.exit(130)));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    let t0 = Date.now();
    const seeded = await seedDatabase(db, { posts: options.posts, bodyKb: options.bodyKb });
    log(`seeded ${options.posts} posts of ${options.bodyKb} KB on ${options.engine} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const c: scenario.ScenarioContext = { key: seeded.key, postIds: seeded.postIds, bodyBytes: Math.round(options.bodyKb * 1024) };
    const startApi = async (extra: { sqliteSynchronous?: 'FULL' | 'NORMAL'; readCacheMb?: number } = {}) => {
      const server = await startApiServer({ mode: options.server, appDir: options.app, databaseUrl: db.database.url, mediaDir: join(db.workDir, 'media'), cpuProfDir: options.cpuProf, readCacheMb: options.readCacheMb, ...extra });
      servers.push(server);
      return server;
    };
    const stop = async (server: RunningServer) => {
      servers.splice(servers.indexOf(server), 1);
      await server.stop();
    };

    let api = await startApi();
    const postJson = await probe(api, scenario.getPost(c), [200]);
    const payloadFile = join(db.workDir, 'post.json');
    writeFileSync(payloadFile, postJson);
    const bare = await startBareServer(payloadFile);
    servers.push(bare);
    log(`api pid ${api.pid} (${options.server}), bare pid ${bare.pid}; ${options.duration} s per row, ${options.connections} connections`);

    const rows = new Map<string, Row>();
    const measureRow = async (server: RunningServer, spec: scenario.LoadSpec, connections: number, seconds: number, what: string) => {
      log(`  ${what}: ${seconds} s × ${connections} connections`);
      return scenario.measure(server, spec, connections, seconds);
    };

    // Read set: warm-up (unreported), then the repetitions; each row reports its median repetition.
    const reads = READS.filter((r) => wants(options, r.name));
    const runBare = wants(options, 'bare') || reads.length > 0;
    if (options.warmup > 0) {
      log('warm-up');
      if (runBare) await measureRow(bare, scenario.bareGet(c), options.connections, options.warmup, 'bare');
      for (const r of reads) await measureRow(api, r.spec(c), options.connections, options.warmup, r.label);
    }
    const perRep: Record<string, scenario.Measurement[]> = {};
    for (let rep = 1; rep <= options.repeats; rep++) {
      log(`read set, repetition ${rep}/${options.repeats}`);
      if (runBare) (perRep.bare ??= []).push(await measureRow(bare, scenario.bareGet(c), options.connections, options.duration, 'bare node:http'));
      let peak = NaN;
      for (const r of reads) {
        const m = await measureRow(api, r.spec(c), options.connections, options.duration, r.label);
        (perRep[r.name] ??= []).push(m);
        if (!(m.peakRssMb <= peak)) peak = m.peakRssMb;
      }
      const mem = readMemory(api.pid);
      if (mem && reads.length > 0) {
        results.rssAfterRepetitionMb.push(mem.rssMb);
        results.rssPeakPerRepetitionMb.push(peak);
        const live = await memoryAfterGc(api);
        if (live) results.afterGcPerRepetition.push(live);
      }
    }
    const pick = (name: string) => {
      const list = perRep[name];
      if (!list?.length) return null;
      return { ...median(list, (m) => m.rps), peakRssMb: Math.max(...list.map((m) => m.peakRssMb)) };
    };
    const bareM = pick('bare');
    const ratio = (m: scenario.Measurement | null) => (m && bareM && bareM.rps > 0 ? m.rps / bareM.rps : null);
    if (bareM) rows.set('bare', { label: 'bare node:http, same post JSON', connections: options.connections, m: bareM, ratio: 1 });
    for (const r of reads) {
      const m = pick(r.name);
      rows.set(r.name, { label: r.label, connections: options.connections, m, ratio: ratio(m) });
    }

    // Writes, once each.
    const writes: Array<{ name: 'create' | 'create-rewritten' | 'publish'; text: string; spec: scenario.LoadSpec; expected: number[] }> = [
      { name: 'create', text: `POST /v1/blog/posts (${options.bodyKb} KB body)`, spec: scenario.createPost(c), expected: [201] },
      { name: 'create-rewritten', text: `POST /v1/blog/posts (${options.bodyKb} KB, filter rewrites)`, spec: scenario.createPost(c, { rewritten: true }), expected: [201] },
      { name: 'publish', text: 'POST /v1/blog/posts/{id}/publish', spec: scenario.publishPost(c), expected: [200] },
    ];
    for (const w of writes.filter((x) => wants(options, x.name))) {
      await probe(api, w.spec, w.expected);
      if (options.warmup > 0) await measureRow(api, w.spec, options.connections, Math.min(options.warmup, 2), `${w.text} (warm-up)`);
      const m = await measureRow(api, w.spec, options.connections, options.duration, w.text);
      rows.set(w.name, { label: w.text, connections: options.connections, m, ratio: ratio(m) });
    }

    if (wants(options, 'upload')) {
      const openapi = JSON.parse(await probe(api, { method: 'GET', path: '/v1/openapi.json', headers: { authorization: `Bearer ${seeded.key}` } }, [200]));
      const uploadLabel = 'POST /v1/media/images (12 MP JPEG)';
      if (!openapi.paths?.['/v1/media/images']?.post) {
        rows.set('upload', { label: uploadLabel, connections: null, m: null, ratio: null, note: 'n/a (not available)' });
      } else {
        t0 = Date.now();
        const jpeg = await makePhotoJpeg();
        log(`made a ${(jpeg.length / 1048576).toFixed(1)} MB 12 MP JPEG in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        const spec = scenario.uploadImage(c, jpeg);
        await probe(api, spec, [201]);
        const m = await measureRow(api, spec, options.uploadConnections, options.duration, uploadLabel);
        rows.set('upload', { label: `${uploadLabel}, ${(jpeg.length / 1048576).toFixed(1)} MB`, connections: options.uploadConnections, m, ratio: ratio(m) });
      }
    }
    const hwm = readMemory(api.pid)?.hwmMb ?? null;
    results.serverPeakMb = hwm;

    // What a read costs when nothing is kept (a first read, or after a write): a fresh server
    // process with the read cache off. PostgreSQL never keeps reads, so its rows above are that.
    if (wants(options, 'uncached') && options.engine === 'sqlite') {
      await stop(api);
      api = await startApi({ readCacheMb: 0 });
      for (const r of READS.filter((x) => x.name === 'get' || x.name === 'list')) {
        const label = `${r.label}, read cache off`;
        if (options.warmup > 0) await measureRow(api, r.spec(c), options.connections, options.warmup, `${label} (warm-up)`);
        const m = await measureRow(api, r.spec(c), options.connections, options.duration, label);
        rows.set(`${r.name}-uncached`, { label, connections: options.connections, m, ratio: ratio(m) });
      }
    }

    // Durability: the same create run under the other setting, on a fresh server process.
    if (options.durability && wants(options, 'create')) {
      await stop(api);
      let text: string;
      if (options.engine === 'sqlite') {
        api = await startApi({ sqliteSynchronous: 'FULL' });
        text = 'POST /v1/blog/posts, synchronous=FULL';
      } else {
        await db.adminQuery!(`ALTER DATABASE ${db.name} SET synchronous_commit = off`);
        api = await startApi();
        text = 'POST /v1/blog/posts, synchronous_commit=off';
      }
      const spec = scenario.createPost(c);
      await probe(api, spec, [201]);
      if (options.warmup > 0) await measureRow(api, spec, options.connections, Math.min(options.warmup, 2), `${text} (warm-up)`);
      const m = await measureRow(api, spec, options.connections, options.duration, text);
      rows.set('durability', { label: text, connections: options.connections, m, ratio: ratio(m) });
    }

    const order = ['bare', 'get', 'list', 'walk', 'me', 'get-uncached', 'list-uncached', 'create', 'create-rewritten', 'publish', 'upload', 'durability'];
    results.rows = order.filter((k) => rows.has(k)).map((k) => rows.get(k)!);
    results.targets = checkTargets(options, rows, results.rssAfterRepetitionMb, results.rssPeakPerRepetitionMb, results.afterGcPerRepetition);
    return results;
  } finally {
    await stopAll();
    await db.drop();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

function checkTargets(options: BenchOptions, rows: Map<string, Row>, rss: number[], peaks: number[], live: MemoryAfterGc[]): string[] {
  const out: string[] = [];
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const ratioTarget = (key: string, what: string, min: number) => {
    const r = rows.get(key);
    if (r?.ratio != null) out.push(`${what} ≥ ${min.toFixed(2)} × bare: ${r.ratio.toFixed(2)} — ${verdict(r.ratio >= min)}`);
  };
  ratioTarget('get', 'GET one post', 0.5);
  ratioTarget('list', 'list of 20', 0.35);
  ratioTarget('me', '/v1/me', 0.5);
  const create = rows.get('create')?.m;
  if (create && options.engine === 'sqlite') out.push(`create ≥ 1,500 req/s (SQLite, ${options.bodyKb} KB): ${Math.round(create.rps).toLocaleString('en-US')} — ${verdict(create.rps >= 1500)}`);
  const rewritten = rows.get('create-rewritten')?.m;
  if (rewritten && options.engine === 'sqlite') out.push(`create, filter rewrites ≥ 1,500 req/s (SQLite, ${options.bodyKb} KB): ${Math.round(rewritten.rps).toLocaleString('en-US')} — ${verdict(rewritten.rps >= 1500)}`);
  const readP99 = ['get', 'list', 'walk', 'me'].map((k) => rows.get(k)?.m?.p99).filter((v): v is number => v !== undefined);
  if (readP99.length) out.push(`read p99 ≤ 50 ms at ${options.connections} connections: worst ${Math.max(...readP99).toFixed(1)} ms — ${verdict(Math.max(...readP99) <= 50)}`);
  if (rss.length >= 2) {
    // RSS moves with when the collector runs (the heap grows up to a multiple of what is live,
    // then shrinks); what is live after a full collection is what a leak would make grow.
    out.push(`server RSS after each read repetition: ${rss.map((v) => v.toFixed(0)).join(' → ')} MB; peak during each: ${peaks.map((v) => v.toFixed(0)).join(' → ')} MB`);
    if (live.length >= 2) {
      const total = live.map((m) => m.heapUsedMb + m.externalMb);
      const growth = total[total.length - 1] - total[0];
      const flat = growth <= Math.max(5, total[0] * 0.05);
      out.push(
        `server memory live after a full GC at the end of each read repetition (heap + external): ${total.map((v) => v.toFixed(0)).join(' → ')} MB ` +
          `(${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB) — ${flat ? 'flat' : 'GROWING'}`,
      );
    }
  } else if (rss.length === 1) {
    out.push(`server RSS after the read set: ${rss[0].toFixed(0)} MB (peak ${peaks[0].toFixed(0)} MB)`);
  }
  return out;
}

async function main() {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${err instanceof UsageError && err.message ? `${err.message}\n` : (err as Error).message ? `${(err as Error).message}\n` : ''}${USAGE}\n`);
      process.exit(err instanceof UsageError && !err.message ? 0 : 2);
    }
    throw err;
  }
  if (options.filters) {
    // Loaded only here: the candidates' libraries (one a WebAssembly module) are of no use to the other rows.
    const { compareFilters } = await import('./lib/filters.js');
    const timing = options.smoke ? { rounds: 1, msPerRound: 20, poolSeconds: 0.2 } : { rounds: Math.max(options.repeats, 3), msPerRound: 400, poolSeconds: 3 };
    process.stdout.write(`${await compareFilters({ bodyBytes: Math.round(options.bodyKb * 1024), ...timing }, log)}\n`);
    return;
  }
  const results = await run(options);
  const title =
    `Benchmark: ${options.engine}, ${options.app ? `build in ${options.app}` : options.server === 'dist' ? 'built output' : 'source (tsx)'}, ${options.posts.toLocaleString('en-US')} posts × ${options.bodyKb} KB, ` +
    `${options.duration} s per row, read set × ${options.repeats} (median shown), ${results.machine.cpus} CPUs, node ${results.machine.node}`;
  const lines = [title, '', formatTable(results.rows), ''];
  if (results.serverPeakMb !== null) lines.push(`API server peak RSS (VmHWM) after the main run: ${results.serverPeakMb.toFixed(0)} MB`);
  lines.push(...results.targets);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (options.json) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  },
);
