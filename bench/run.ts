// `npm run bench`: seeds a store, starts the API and a bare node:http ceiling as separate
// processes, drives them over loopback with autocannon and prints one table.
// See docs/performance.md for what it measures and the figures from a run.
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { corpusKb } from './lib/corpus.js';
import { CREATE_STORES, seedCreateStores, startCreateCeilingServer } from './lib/create-rows.js';
import { makePhotoJpeg } from './lib/jpeg.js';
import { variantRows, VARIANT_ROWS } from './image-variants.js';
import { parseOptions, USAGE, UsageError, wants, type BenchOptions } from './lib/options.js';
import {
  buildDist,
  memoryAfterGc,
  readMemory,
  startApiServer,
  startBareServer,
  startFastifyServer,
  startOneQueryServer,
  type MemoryAfterGc,
  type RunningServer,
} from './lib/processes.js';
import { formatTable, machineBound, median, type Row } from './lib/report.js';
import * as scenario from './lib/scenarios.js';
import { createBenchDatabase, seedDatabase, type BenchDatabase } from './lib/seed.js';
import { SEARCH_QUERIES, searchPosts, seedSearchStore } from './lib/search.js';
import { measurePublishing, PUBLISHING_ROWS } from './publishing.js';

const log = (text: string) => process.stderr.write(`${text}\n`);

const { READS } = scenario;

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
  /** The machine's load averages (1, 5 and 15 minutes) when the run started and when it ended. */
  loadAverage: { start: number[]; end: number[] | null };
}

/** Whether something accepts TCP connections at a redis:// URL's host and port. */
function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** One real request shaped like the scenario's first, so a broken setup stops with its answer. */
async function probe(server: RunningServer, spec: scenario.LoadSpec, expected: number[]): Promise<string> {
  const first = spec.requests?.[0] ?? {};
  let req = {
    method: spec.method ?? 'GET',
    path: spec.path ?? '/',
    headers: { ...(spec.headers ?? {}) },
    body: spec.body,
    ...first,
  };
  if (first.setupRequest)
    req = { ...req, ...(first.setupRequest({ ...req }, { ...(spec.initialContext ?? {}) }) ?? {}) };
  const body = typeof req.body === 'string' || req.body === undefined ? req.body : new Uint8Array(req.body);
  const res = await fetch(`${server.url}${req.path}`, {
    method: req.method,
    headers: { ...req.headers, ...first.headers },
    body,
  });
  const text = await res.text();
  if (!expected.includes(res.status))
    throw new Error(`${req.method} ${req.path} answered ${res.status}: ${text.slice(0, 500)}`);
  return text;
}

async function run(options: BenchOptions): Promise<Results> {
  const loadAtStart = loadavg();
  if (options.build) buildDist(log, 'run with --server source');
  const results: Results = {
    options,
    machine: { cpus: cpus().length, node: process.version },
    rows: [],
    rssAfterRepetitionMb: [],
    rssPeakPerRepetitionMb: [],
    afterGcPerRepetition: [],
    serverPeakMb: null,
    targets: [],
    loadAverage: { start: loadAtStart, end: null },
  };
  if (options.redisUrl === 'default')
    options.redisUrl = (await answers('redis://127.0.0.1:6379')) ? 'redis://127.0.0.1:6379' : null;
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
    log(
      `seeded ${options.posts} posts of ${options.bodyKb} KB on ${options.engine} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    // Stores of their own for the spread create row, seeded before the API starts.
    const storeKeys = wants(options, 'create-stores') ? await seedCreateStores(db) : null;
    const c: scenario.ScenarioContext = {
      key: seeded.key,
      postIds: seeded.postIds,
      bodyBytes: Math.round(options.bodyKb * 1024),
    };
    let apiCount = 0;
    const startApi = async (
      extra: { sqliteSynchronous?: 'FULL' | 'NORMAL'; readCacheMb?: number; logLevel?: string } = {},
    ) => {
      const server = await startApiServer({
        mode: options.server,
        appDir: options.app,
        databaseUrl: db.database.url,
        mediaDir: join(db.workDir, 'media'),
        cpuProfDir: options.cpuProf,
        readCacheMb: options.readCacheMb,
        logLevel: options.logLevel,
        redisUrl: options.redisUrl,
        logFile: join(db.workDir, `api-${++apiCount}.log`),
        ...extra,
      });
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
    const framework = await startFastifyServer(payloadFile, join(db.workDir, 'fastify.log'));
    servers.push(framework);
    // PostgreSQL: the one-query ceiling answers with the same post's JSON after reading it.
    const oneQuery =
      options.engine === 'postgres' ? await startOneQueryServer(payloadFile, db.database.url, c.postIds[0]) : null;
    if (oneQuery) servers.push(oneQuery);
    log(
      `api pid ${api.pid} (${options.server}, LOG_LEVEL=${options.logLevel}, ${options.redisUrl ? `Redis ${options.redisUrl}` : 'no Redis'}), bare pid ${bare.pid}${oneQuery ? `, one-query pid ${oneQuery.pid}` : ''}; ${options.duration} s per row, ${options.connections} connections`,
    );

    const rows = new Map<string, Row>();
    const measureRow = async (
      server: RunningServer,
      spec: scenario.LoadSpec,
      connections: number,
      seconds: number,
      what: string,
    ) => {
      log(`  ${what}: ${seconds} s × ${connections} connections`);
      return scenario.measure(server, spec, connections, seconds);
    };

    // Read set: warm-up (unreported), then the repetitions; each row reports its median repetition.
    const reads = READS.filter((r) => wants(options, r.name));
    const runBare = wants(options, 'bare') || reads.length > 0;
    const runFastify = wants(options, 'fastify') || reads.length > 0;
    const runOneQuery = oneQuery !== null && (wants(options, 'one-query') || reads.length > 0);
    if (options.warmup > 0) {
      log('warm-up');
      if (runBare) await measureRow(bare, scenario.bareGet(c), options.connections, options.warmup, 'bare');
      if (runFastify) await measureRow(framework, scenario.bareGet(c), options.connections, options.warmup, 'fastify');
      if (runOneQuery)
        await measureRow(oneQuery, scenario.bareGet(c), options.connections, options.warmup, 'one-query');
      for (const r of reads) await measureRow(api, r.spec(c), options.connections, options.warmup, r.label);
      // Every post once, so the cycle over all of them starts with the cache full (a timed
      // warm-up on a slow machine did not reach them all).
      if (reads.some((r) => r.name === 'get'))
        await scenario.visitAll(api, scenario.getPost(c), options.connections, c.postIds.length);
    }
    const perRep: Record<string, scenario.Measurement[]> = {};
    for (let rep = 1; rep <= options.repeats; rep++) {
      log(`read set, repetition ${rep}/${options.repeats}`);
      if (runBare)
        (perRep.bare ??= []).push(
          await measureRow(bare, scenario.bareGet(c), options.connections, options.duration, 'bare node:http'),
        );
      if (runFastify)
        (perRep.fastify ??= []).push(
          await measureRow(framework, scenario.bareGet(c), options.connections, options.duration, 'Fastify ceiling'),
        );
      if (runOneQuery)
        (perRep['one-query'] ??= []).push(
          await measureRow(oneQuery, scenario.bareGet(c), options.connections, options.duration, 'one-query ceiling'),
        );
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
    const fastifyM = pick('fastify');
    const oneQueryM = pick('one-query');
    const ratio = (m: scenario.Measurement | null) => (m && bareM && bareM.rps > 0 ? m.rps / bareM.rps : null);
    const ratioOneQuery = (m: scenario.Measurement | null) =>
      m && oneQueryM && oneQueryM.rps > 0 ? m.rps / oneQueryM.rps : null;
    const ratioFastify = (m: scenario.Measurement | null) =>
      m && fastifyM && fastifyM.rps > 0 ? m.rps / fastifyM.rps : null;
    const row = (label: string, m: scenario.Measurement | null, connections = options.connections): Row => ({
      label,
      connections,
      m,
      ratio: ratio(m),
      ratioFastify: ratioFastify(m),
      ratioOneQuery: ratioOneQuery(m),
    });
    if (bareM) rows.set('bare', { ...row('bare node:http, same post JSON', bareM), ratio: 1 });
    if (fastifyM) rows.set('fastify', row('Fastify, one route, same post JSON, pino line per request', fastifyM));
    if (oneQueryM) rows.set('one-query', row('node:http + one pg point read, same post JSON', oneQueryM));
    for (const r of reads) rows.set(r.name, row(r.label, pick(r.name)));

    // Writes, once each. Every create row sends the corpus's bodies (bench/corpus/); the create
    // ceiling receives the very requests of the create row, first, whenever a create row runs,
    // so every create row has its ratio to it.
    const kb = corpusKb();
    let createCeilingM: scenario.Measurement | null = null;
    const ratioCreate = (m: scenario.Measurement | null) =>
      m && createCeilingM && createCeilingM.rps > 0 ? m.rps / createCeilingM.rps : null;
    const runsCreates = wants(options, 'create') || wants(options, 'create-rewritten') || storeKeys !== null;
    if (wants(options, 'create-ceiling') || runsCreates) {
      const ceiling = await startCreateCeilingServer({
        mode: options.server,
        appDir: options.app,
        databaseUrl: db.database.url,
        mediaDir: join(db.workDir, 'media'),
      });
      servers.push(ceiling);
      const label = `create ceiling: node:http, one committed INSERT (${kb} KB body)`;
      const spec = scenario.createPost(c);
      await probe(ceiling, spec, [201]);
      if (options.warmup > 0)
        await measureRow(ceiling, spec, options.connections, Math.min(options.warmup, 2), `${label} (warm-up)`);
      createCeilingM = await measureRow(ceiling, spec, options.connections, options.duration, label);
      rows.set('create-ceiling', { ...row(label, createCeilingM), ratioCreate: 1 });
      await stop(ceiling);
    }
    const writes: Array<{
      name: 'create' | 'create-rewritten' | 'create-stores' | 'publish';
      text: string;
      spec: () => scenario.LoadSpec;
      expected: number[];
    }> = [
      {
        name: 'create',
        text: `POST /v1/blog/posts (${kb} KB body)`,
        spec: () => scenario.createPost(c),
        expected: [201],
      },
      {
        name: 'create-rewritten',
        text: `POST /v1/blog/posts (${kb} KB, filter rewrites)`,
        spec: () => scenario.createPost(c, { rewritten: true }),
        expected: [201],
      },
      {
        name: 'create-stores',
        text: `POST /v1/blog/posts over ${CREATE_STORES} stores, one key each (${kb} KB body)`,
        spec: () => scenario.createPost(c, { keys: storeKeys ?? [] }),
        expected: [201],
      },
      {
        name: 'publish',
        text: 'POST /v1/blog/posts/{id}/publish',
        spec: () => scenario.publishPost(c),
        expected: [200],
      },
    ];
    for (const w of writes.filter((x) => wants(options, x.name) && (x.name !== 'create-stores' || storeKeys))) {
      const spec = w.spec();
      await probe(api, spec, w.expected);
      if (options.warmup > 0)
        await measureRow(api, spec, options.connections, Math.min(options.warmup, 2), `${w.text} (warm-up)`);
      const m = await measureRow(api, spec, options.connections, options.duration, w.text);
      rows.set(w.name, { ...row(w.text, m), ratioCreate: w.name === 'publish' ? null : ratioCreate(m) });
    }

    if (wants(options, 'upload')) {
      const openapi = JSON.parse(
        await probe(
          api,
          { method: 'GET', path: '/v1/openapi.json', headers: { authorization: `Bearer ${seeded.key}` } },
          [200],
        ),
      ) as { paths?: Record<string, { post?: unknown } | undefined> };
      const uploadLabel = 'POST /v1/media/images (12 MP JPEG)';
      if (!openapi.paths?.['/v1/media/images']?.post) {
        rows.set('upload', {
          label: uploadLabel,
          connections: null,
          m: null,
          ratio: null,
          note: 'n/a (not available)',
        });
      } else {
        t0 = Date.now();
        const jpeg = await makePhotoJpeg();
        log(`made a ${(jpeg.length / 1048576).toFixed(1)} MB 12 MP JPEG in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        const spec = scenario.uploadImage(c, jpeg);
        await probe(api, spec, [201]);
        const m = await measureRow(api, spec, options.uploadConnections, options.duration, uploadLabel);
        rows.set(
          'upload',
          row(`${uploadLabel}, ${(jpeg.length / 1048576).toFixed(1)} MB`, m, options.uploadConnections),
        );
      }
    }
    if (wants(options, 'variant'))
      for (const [key, r] of await variantRows({
        ...options,
        server: api,
        c,
        measure: (...a) => measureRow(api, ...a),
        row,
      }))
        rows.set(key, r);
    if (wants(options, 'pages'))
      for (const p of await measurePublishing(api, seeded.storeHandle, options, measureRow))
        rows.set(p.name, row(p.label, p.m));
    const hwm = readMemory(api.pid)?.hwmMb ?? null;
    results.serverPeakMb = hwm;

    // What a read costs when nothing is cached (a first read, or after a write): a fresh server
    // process with the read cache off.
    if (wants(options, 'uncached')) {
      await stop(api);
      api = await startApi({ readCacheMb: 0 });
      for (const r of READS.filter((x) => x.name === 'get' || x.name === 'list')) {
        const label = `${r.label}, read cache off`;
        if (options.warmup > 0)
          await measureRow(api, r.spec(c), options.connections, options.warmup, `${label} (warm-up)`);
        const m = await measureRow(api, r.spec(c), options.connections, options.duration, label);
        rows.set(`${r.name}-uncached`, row(label, m));
      }
    }

    // Quieter logging than the production default: the hottest reads on a fresh server process.
    if (wants(options, 'quiet') && options.logLevel !== 'warn') {
      await stop(api);
      api = await startApi({ logLevel: 'warn' });
      for (const r of READS.filter((x) => x.name === 'get' || x.name === 'me')) {
        const label = `${r.label}, LOG_LEVEL=warn`;
        if (options.warmup > 0)
          await measureRow(api, r.spec(c), options.connections, options.warmup, `${label} (warm-up)`);
        if (options.warmup > 0 && r.name === 'get')
          await scenario.visitAll(api, r.spec(c), options.connections, c.postIds.length);
        const m = await measureRow(api, r.spec(c), options.connections, options.duration, label);
        rows.set(`${r.name}-quiet`, row(label, m));
      }
    }

    // PostgreSQL: two API processes on the one database (and Redis), the same load split
    // between them, as behind a load balancer.
    if (wants(options, 'two') && options.engine === 'postgres') {
      await stop(api);
      const pair = [await startApi(), await startApi()];
      const label = `GET /v1/blog/posts/{id}, two API processes${options.redisUrl ? ' and Redis' : ''}`;
      if (options.warmup > 0)
        for (const s of pair) await scenario.visitAll(s, scenario.getPost(c), options.connections, c.postIds.length);
      log(`  ${label}: ${options.duration} s × ${options.connections} connections`);
      const m = await scenario.measureSplit(pair, () => scenario.getPost(c), options.connections, options.duration);
      rows.set('two', row(label, m));
      for (const s of pair) await stop(s);
      api = await startApi();
    }

    // Search (q): a store of its own with --search-posts short posts, a fresh server process
    // with the read cache off (a page found once would otherwise be served from memory), and
    // few connections, so p50 and p99 show what a search costs rather than a queue.
    if (wants(options, 'search')) {
      await stop(api);
      t0 = Date.now();
      const search = await seedSearchStore(db, options.searchPosts);
      log(
        `seeded ${options.searchPosts} search posts on ${options.engine} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      api = await startApi({ readCacheMb: 0 });
      for (const s of SEARCH_QUERIES) {
        const spec = searchPosts(search.key, s.q);
        const label = `GET /v1/blog/posts?q=${s.q} (${s.what}, ${options.searchPosts.toLocaleString('en-US')} posts)`;
        await probe(api, spec, [200]);
        if (options.warmup > 0)
          await measureRow(api, spec, options.searchConnections, Math.min(options.warmup, 2), `${label} (warm-up)`);
        const m = await measureRow(api, spec, options.searchConnections, options.duration, label);
        rows.set(s.name, row(label, m, options.searchConnections));
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
      if (options.warmup > 0)
        await measureRow(api, spec, options.connections, Math.min(options.warmup, 2), `${text} (warm-up)`);
      const m = await measureRow(api, spec, options.connections, options.duration, text);
      rows.set('durability', { ...row(text, m), ratioCreate: ratioCreate(m) });
    }

    const order = [
      'bare',
      'fastify',
      'one-query',
      'get',
      'list',
      'walk',
      'me',
      'two',
      'get-uncached',
      'list-uncached',
      'get-quiet',
      'me-quiet',
      'create-ceiling',
      'create',
      'create-rewritten',
      'create-stores',
      'publish',
      'upload',
      ...VARIANT_ROWS,
      ...PUBLISHING_ROWS,
      'durability',
      ...SEARCH_QUERIES.map((q) => q.name),
    ];
    results.rows = order.filter((k) => rows.has(k)).map((k) => rows.get(k)!);
    results.targets = checkTargets(
      options,
      rows,
      results.rssAfterRepetitionMb,
      results.rssPeakPerRepetitionMb,
      results.afterGcPerRepetition,
    );
    return results;
  } finally {
    await stopAll();
    await db.drop();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

/** Every target is judged with this margin (docs/performance.md, "Targets"). */
const MARGIN = 1.1;

function checkTargets(
  options: BenchOptions,
  rows: Map<string, Row>,
  rss: number[],
  peaks: number[],
  live: MemoryAfterGc[],
): string[] {
  const out: string[] = [
    `A target is met only with a ${Math.round((MARGIN - 1) * 100)} % margin: a ratio at ${MARGIN} × its minimum or more, a latency at its limit ÷ ${MARGIN} or less.`,
  ];
  const short = (n: number) => String(Number(n.toFixed(3)));
  /** A minimum (ratio) or a limit (latency), judged with the margin. */
  const atLeast = (value: number, min: number) =>
    `${value.toFixed(2)} (needs ≥ ${short(min * MARGIN)}) — ${value >= min * MARGIN ? 'met' : value >= min ? 'MISSED (short of the margin)' : 'MISSED'}`;
  const below = (value: number, limit: number) =>
    `(needs ≤ ${(limit / MARGIN).toFixed(1)} ms) — ${value <= limit / MARGIN ? 'met' : value < limit ? 'MISSED (short of the margin)' : 'MISSED'}`;
  const rps = (m: { rps: number } | null | undefined) => Math.round(m?.rps ?? NaN).toLocaleString('en-US');
  const fastifyTarget = (key: string, what: string, min: number) => {
    const r = rows.get(key);
    if (r?.m && r.ratioFastify != null) {
      out.push(`${what} ≥ ${short(min)} × the Fastify ceiling: ${atLeast(r.ratioFastify, min)}`);
      const ceiling = rows.get('fastify')?.m;
      if (ceiling) out.push(...machineBound(r.m, ceiling, min * MARGIN, 'read', options.engine));
    }
  };
  const createTarget = (key: string, what: string, min: number) => {
    const r = rows.get(key);
    if (!r?.m) return;
    if (r.ratioCreate == null) out.push(`${what} ≥ ${short(min)} × the create ceiling: no create ceiling in this run`);
    else {
      const ceiling = rows.get('create-ceiling')?.m;
      out.push(
        `${what} ≥ ${short(min)} × the create ceiling (${rps(r.m)} ÷ ${rps(ceiling)} req/s): ${atLeast(r.ratioCreate, min)}`,
      );
      if (ceiling) out.push(...machineBound(r.m, ceiling, min * MARGIN, 'create', options.engine));
    }
  };
  // Cached reads against the framework ceiling, on both engines.
  fastifyTarget('get', 'GET one post', 0.5);
  fastifyTarget('list', 'list of 20', 0.5);
  fastifyTarget('me', '/v1/me', 0.5);
  const p99Limit = 25;
  // Creates against the create ceiling of this run.
  const engine = options.engine === 'postgres' ? 'PostgreSQL' : 'SQLite';
  const oneStore = options.engine === 'postgres' ? 0.2 : 0.25;
  createTarget('create', `create, one store (${engine})`, oneStore);
  createTarget('create-rewritten', `create, one store, filter rewrites (${engine})`, oneStore);
  createTarget('create-stores', `create over ${CREATE_STORES} stores (${engine})`, 0.25);
  const searchP50: Array<{ q: string; p50: number }> = [];
  for (const s of SEARCH_QUERIES) {
    const p50 = rows.get(s.name)?.m?.p50;
    if (p50 !== undefined) searchP50.push({ q: s.q, p50 });
  }
  if (searchP50.length) {
    const { q, p50: worst } = searchP50.reduce((a, b) => (b.p50 > a.p50 ? b : a));
    out.push(
      `search p50 < 50 ms at ${options.searchConnections} connections over ${options.searchPosts.toLocaleString('en-US')} posts: worst ${worst.toFixed(1)} ms (q=${q}) ${below(worst, 50)}`,
    );
  }
  const readP99 = ['get', 'list', 'walk', 'me']
    .map((k) => rows.get(k)?.m?.p99)
    .filter((v): v is number => v !== undefined);
  if (readP99.length)
    out.push(
      `read p99 < ${p99Limit} ms at ${options.connections} connections: worst ${Math.max(...readP99).toFixed(1)} ms ${below(Math.max(...readP99), p99Limit)}`,
    );
  if (rss.length >= 2) {
    // RSS moves with when the collector runs (the heap grows up to a multiple of what is live,
    // then shrinks); what is live after a full collection is what a leak would make grow.
    out.push(
      `server RSS after each read repetition: ${rss.map((v) => v.toFixed(0)).join(' → ')} MB; peak during each: ${peaks.map((v) => v.toFixed(0)).join(' → ')} MB`,
    );
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
      process.stderr.write(
        `${err instanceof UsageError && err.message ? `${err.message}\n` : (err as Error).message ? `${(err as Error).message}\n` : ''}${USAGE}\n`,
      );
      process.exit(err instanceof UsageError && !err.message ? 0 : 2);
    }
    throw err;
  }
  if (options.filters) {
    // Loaded only here: the candidates' libraries (one a WebAssembly module) are of no use to the other rows.
    const { compareFilters } = await import('./lib/filters.js');
    const timing = options.smoke
      ? { rounds: 1, msPerRound: 20, poolSeconds: 0.2 }
      : { rounds: Math.max(options.repeats, 3), msPerRound: 400, poolSeconds: 3 };
    process.stdout.write(`${await compareFilters({ bodyBytes: Math.round(options.bodyKb * 1024), ...timing }, log)}\n`);
    return;
  }
  if (wants(options, 'neighbours') && options.only.includes('neighbours')) {
    if (options.redisUrl === 'default')
      options.redisUrl =
        options.engine === 'postgres' && (await answers('redis://127.0.0.1:6379')) ? 'redis://127.0.0.1:6379' : null;
    if (options.build) {
      buildDist(log, 'run with --server source');
      options.build = false;
    }
    const { runNeighbours } = await import('./lib/neighbours.js');
    process.stdout.write(`${(await runNeighbours(options, log)).join('\n')}\n`);
    if (options.only.length === 1) return;
    options.only = options.only.filter((name) => name !== 'neighbours');
  }
  // --engine both: the same rows on SQLite, then on PostgreSQL, each with its own ceilings and
  // a table of its own (built once).
  const perEngine =
    options.engines.length === 1
      ? [options]
      : options.engines.map((engine, i) => ({
          ...(i === 0 ? options : parseOptions(process.argv.slice(2).map((a) => engineArgument(a, engine)))),
          only: options.only,
          build: i === 0 && options.build,
        }));
  const all: Results[] = [];
  for (const o of perEngine) {
    const results = await run(o);
    results.loadAverage.end = loadavg();
    all.push(results);
    printResults(o, results);
  }
  if (options.json) writeFileSync(options.json, `${JSON.stringify(all.length === 1 ? all[0] : all, null, 2)}\n`);
}

/** One argument of the command line with `both` as --engine's value replaced by `engine`. */
function engineArgument(arg: string, engine: string): string {
  if (arg === 'both') return engine;
  return arg === '--engine=both' ? `--engine=${engine}` : arg;
}

function printResults(options: BenchOptions, results: Results): void {
  const title =
    `Benchmark: ${options.engine}, ${options.app ? `build in ${options.app}` : options.server === 'dist' ? 'built output' : 'source (tsx)'}, ${options.posts.toLocaleString('en-US')} posts × ${options.bodyKb} KB, ` +
    `${options.duration} s per row, read set × ${options.repeats} (median shown), LOG_LEVEL=${options.logLevel}, ${options.redisUrl ? 'Redis' : 'no Redis'}, ${results.machine.cpus} CPUs, node ${results.machine.node}`;
  const load = (l: number[] | null) => (l ? l.map((v) => v.toFixed(2)).join(', ') : '?');
  const lines = [
    title,
    `load average (1, 5, 15 min): ${load(results.loadAverage.start)} at the start; ${load(results.loadAverage.end)} at the end`,
    '',
    formatTable(results.rows),
    '',
  ];
  if (results.serverPeakMb !== null)
    lines.push(`API server peak RSS (VmHWM) after the main run: ${results.serverPeakMb.toFixed(0)} MB`);
  lines.push(...results.targets);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
