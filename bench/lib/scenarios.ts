// What each row of the table sends, as autocannon options, and how one row is measured.
// autocannon calls setupRequest only on entries of `requests`, and a path given at the top level
// loses to the URL's, so every request is described inside `requests`.
import autocannon, { type AutocannonOptions, type AutocannonRequest } from 'autocannon';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { BOUNDARY, uploadBodyFactory } from './jpeg.js';
import {
  cpuGrowth,
  memoryAfterGc,
  readCpuSeconds,
  readMachineCpu,
  readProcessesCpu,
  sampleRss,
  type RunningServer,
} from './processes.js';
import { corpusBodies } from './corpus.js';

export type LoadSpec = Omit<AutocannonOptions, 'url' | 'connections' | 'duration'>;

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  /** Server CPU time (user + system) per answered request, microseconds. */
  cpuUsPerRequest: number;
  /**
   * The whole machine's busy CPU time per answered request, microseconds: the server, its
   * database and Redis, and the load generator. When the machine is saturated (idle near 0),
   * throughput is the CPUs' count ÷ this, so two rows' figures bound their ratio.
   */
  machineCpuUsPerRequest?: number;
  /** The machine's idle share of its CPU time over the row, 0–1. */
  machineIdle?: number;
  /** Of the machine's, PostgreSQL's processes' CPU per answered request, microseconds. */
  postgresCpuUsPerRequest?: number;
  /** Of the machine's, the load generator's (this process's) CPU per answered request. */
  loadGeneratorCpuUsPerRequest?: number;
  /** Queries the server sent to PostgreSQL per answered request (null: not counted). */
  queriesPerRequest: number | null;
  /** Commands the server sent to Redis per answered request (null: not counted). */
  redisCommandsPerRequest: number | null;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

/** The server's PostgreSQL queries and Redis commands so far (null: it does not report them). */
const countsSoFar = async (server: RunningServer) => {
  const m = server.reports ? await memoryAfterGc(server) : null;
  return { queries: m?.queries ?? null, redis: m?.redisCommands ?? null };
};

/** The counts' growth over all servers, or null when one of them did not count. */
function grown(before: Array<number | null>, after: Array<number | null>): number | null {
  if (![...before, ...after].every((n) => n !== null && n !== undefined)) return null;
  return after.reduce((t: number, n, i) => t + n! - before[i]!, 0);
}

export async function measure(
  server: RunningServer,
  spec: LoadSpec,
  connections: number,
  durationSeconds: number,
): Promise<Measurement> {
  return measureSplit([server], () => spec, connections, durationSeconds);
}

/** Sends `amount` requests of `spec` (unmeasured): a warm-up that visits every post once. */
export async function visitAll(
  server: RunningServer,
  spec: LoadSpec,
  connections: number,
  amount: number,
): Promise<void> {
  await autocannon({ url: server.url, connections, amount, timeout: 30, ...spec });
}

/**
 * The same load split between several servers (an autocannon each, with an equal share of the
 * connections, all at once). Throughput and CPU add up; the latency shown is the worst server's.
 */
export async function measureSplit(
  servers: RunningServer[],
  specFor: (i: number) => LoadSpec,
  connections: number,
  durationSeconds: number,
): Promise<Measurement> {
  const countsBefore = await Promise.all(servers.map(countsSoFar));
  const samplers = servers.map((s) => sampleRss(s.pid));
  const cpuBefore = servers.map((s) => readCpuSeconds(s.pid));
  const machineBefore = readMachineCpu();
  const postgresBefore = readProcessesCpu('postgres');
  const ownBefore = process.cpuUsage();
  const share = Math.max(1, Math.round(connections / servers.length));
  let results: Awaited<ReturnType<typeof autocannon>>[];
  let peakRssMb: number;
  try {
    results = await Promise.all(
      servers.map((s, i) =>
        autocannon({ url: s.url, connections: share, duration: durationSeconds, timeout: 30, ...specFor(i) }),
      ),
    );
  } finally {
    peakRssMb = Math.max(...samplers.map((s) => s.stop()));
  }
  const cpuSeconds = servers.reduce((sum, s, i) => sum + readCpuSeconds(s.pid) - cpuBefore[i], 0);
  const machineAfter = readMachineCpu();
  const postgresSeconds = cpuGrowth(postgresBefore, readProcessesCpu('postgres'));
  const own = process.cpuUsage(ownBefore);
  const machineBusy = machineAfter.busy - machineBefore.busy;
  const machineIdle = machineAfter.idle - machineBefore.idle;
  const countsAfter = await Promise.all(servers.map(countsSoFar));
  const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((total, r) => total + f(r), 0);
  const answered = sum((r) => r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx']);
  const statusCodes: Record<string, number> = {};
  for (const r of results)
    for (const [code, stat] of Object.entries(r.statusCodeStats ?? {}))
      statusCodes[code] = (statusCodes[code] ?? 0) + stat.count;
  const queries = grown(
    countsBefore.map((c) => c.queries),
    countsAfter.map((c) => c.queries),
  );
  const redisCommands = grown(
    countsBefore.map((c) => c.redis),
    countsAfter.map((c) => c.redis),
  );
  return {
    rps: sum((r) => r['2xx'] / r.duration),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    peakRssMb,
    cpuUsPerRequest: answered > 0 ? (cpuSeconds * 1e6) / answered : NaN,
    machineCpuUsPerRequest: answered > 0 ? (machineBusy * 1e6) / answered : NaN,
    machineIdle: machineIdle / (machineBusy + machineIdle),
    postgresCpuUsPerRequest: answered > 0 ? (postgresSeconds * 1e6) / answered : NaN,
    loadGeneratorCpuUsPerRequest: answered > 0 ? (own.user + own.system) / answered : NaN,
    queriesPerRequest: queries !== null && answered > 0 ? queries / answered : null,
    redisCommandsPerRequest: redisCommands !== null && answered > 0 ? redisCommands / answered : null,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors + r.timeouts),
    statusCodes,
  };
}

/** Spreads requests over the seeded posts (a stride coprime with most sizes, not one hot row). */
const spread = (ids: number[], n: number) => ids[(n * 7919) % ids.length];

export interface ScenarioContext {
  key: string;
  postIds: number[];
  bodyBytes: number;
}

const auth = (c: ScenarioContext) => ({ authorization: `Bearer ${c.key}` });

export function getPost(c: ScenarioContext): LoadSpec {
  let n = 0;
  return {
    headers: auth(c),
    requests: [
      { method: 'GET', setupRequest: (req) => ({ ...req, path: `/v1/blog/posts/${spread(c.postIds, n++)}` }) },
    ],
  };
}

export function listPosts(c: ScenarioContext): LoadSpec {
  return { headers: auth(c), requests: [{ method: 'GET', path: '/v1/blog/posts?limit=20' }] };
}

/** Reads the `next_cursor` at the end of a page without parsing the whole page. */
export function nextCursorOf(body: string): string | null {
  const at = body.lastIndexOf('"next_cursor":');
  if (at < 0) return null;
  const m = /^"next_cursor":(?:"([^"]*)"|null)/.exec(body.slice(at, at + 600));
  return m?.[1] ?? null;
}

/**
 * Each connection walks the whole list page by page, following next_cursor, and starts over
 * at the end (autocannon restarts the sequence when a step returns no request).
 */
export function pagedWalk(c: ScenarioContext): LoadSpec {
  const pages = Math.ceil(c.postIds.length / 20) + 1;
  const requests: AutocannonRequest[] = Array.from({ length: pages }, (_, i) => ({
    method: 'GET',
    setupRequest: (req, context) => {
      if (i === 0) return { ...req, path: '/v1/blog/posts?limit=20' };
      const cursor = context.cursor as string | null | undefined;
      return cursor ? { ...req, path: `/v1/blog/posts?limit=20&cursor=${encodeURIComponent(cursor)}` } : null;
    },
    onResponse: (status, body, context) => {
      context.cursor = status === 200 ? nextCursorOf(body) : null;
    },
  }));
  return { headers: auth(c), requests, initialContext: { cursor: null } };
}

export function me(c: ScenarioContext): LoadSpec {
  return { headers: auth(c), requests: [{ method: 'GET', path: '/v1/me' }] };
}

/**
 * The benchmark corpus's bodies in turn (bench/corpus/), each request with a unique title and its
 * own Idempotency-Key; `keys` spreads the requests over several stores, one key each, in turn.
 * The bodies are sent as they are (most hold `<img>`, which the filter rewrites to `<img />`);
 * `rewritten` also writes each paragraph's end as `<br></p>`, so every body is rewritten.
 * The create ceiling receives exactly these requests too.
 */
export function createPost(c: ScenarioContext, options: { rewritten?: boolean; keys?: string[] } = {}): LoadSpec {
  const run = randomLowerAlnum(6);
  const bodies = corpusBodies().map((b) => JSON.stringify(options.rewritten ? b.replaceAll('</p>', '<br></p>') : b));
  const keys = (options.keys ?? [c.key]).map((key) => `Bearer ${key}`);
  let n = 0;
  return {
    headers: { authorization: keys[0], 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: '/v1/blog/posts',
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            headers: { ...req.headers, authorization: keys[i % keys.length], 'idempotency-key': `bench-${run}-${i}` },
            body: `{"title":"Bench create ${run} ${i}","summary":"Created by the benchmark","body_html":${bodies[i % bodies.length]}}`,
          };
        },
      },
    ],
  };
}

/** Publishes posts round the seeded set, each with a distinct back-dated time (always a write). */
export function publishPost(c: ScenarioContext): LoadSpec {
  const base = Date.now() - 86_400_000;
  let n = 0;
  return {
    headers: { ...auth(c), 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = ++n;
          return {
            ...req,
            path: `/v1/blog/posts/${spread(c.postIds, i)}/publish`,
            body: `{"published_at":"${new Date(base - i * 1000).toISOString()}"}`,
          };
        },
      },
    ],
  };
}

export function uploadImage(c: ScenarioContext, jpeg: Buffer): LoadSpec {
  const bodyFor = uploadBodyFactory(jpeg);
  const run = randomLowerAlnum(6);
  let n = 0;
  return {
    headers: { ...auth(c), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    requests: [
      { method: 'POST', path: '/v1/media/images', setupRequest: (req) => ({ ...req, body: bodyFor(`${run}-${++n}`) }) },
    ],
  };
}

/** The bare ceiling receives the same GET (path and headers) as the API's GET one post. */
export const bareGet = getPost;

/** The read rows: their names for --only, their labels in the table, what each sends. */
export const READS = [
  { name: 'get', label: 'GET /v1/blog/posts/{id}', spec: getPost },
  { name: 'list', label: 'GET /v1/blog/posts?limit=20', spec: listPosts },
  { name: 'walk', label: 'GET /v1/blog/posts (cursor walk)', spec: pagedWalk },
  { name: 'me', label: 'GET /v1/me', spec: me },
] as const;
