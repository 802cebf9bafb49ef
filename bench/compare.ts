// `npm run bench:compare -- --against DIR`: this build and another (DIR holds its main.js, for
// example a second checkout's dist/src) serve one seeded database at the same time, each driven
// by half the connections, round after round; every round prints each build's CPU per request.
//
// Why at the same time: this machine's speed drifts by 10-30 % within minutes, so two builds
// measured one after the other differ by more than most changes do. Measured side by side, both
// builds see the same drift: two copies of one build stay within about 3 % of each other round
// by round, which is what a change has to beat. Reads only: writes from two processes would
// queue behind one another's on the database, and that queue is not either build's cost.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { defaultPostgresUrl, positive, UsageError, type EngineName } from './lib/options.js';
import { buildDist, readCpuSeconds, startApiServer, ROOT, type RunningServer } from './lib/processes.js';
import { median } from './lib/report.js';
import * as scenario from './lib/scenarios.js';
import { createBenchDatabase, seedDatabase } from './lib/seed.js';

/** The reads compared (the cursor walk's pages are read once each, not a steady load). */
const COMPARED = ['get', 'list', 'me'];

const USAGE = `usage: npm run bench:compare -- --against DIR [options]
  --against DIR        the other build's folder holding main.js (required)
  --engine E           sqlite (default) or postgres (with Redis at --redis)
  --only ROWS          reads to compare, of get,list,me (default all)
  --rounds N           side-by-side rounds per read (default 6)
  --duration N         seconds per round (default 5)
  --connections N      connections in all, half to each build (default 32)
  --posts N            posts seeded (default 10000)
  --redis URL|none     REDIS_URL of both builds on PostgreSQL (default redis://127.0.0.1:6379)
  --postgres-url URL   admin URL (default $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --no-build           this build's dist/src as it is (default: npm run build first)`;

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    engine: { type: 'string', default: 'sqlite' },
    only: { type: 'string', default: 'get,list,me' },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    posts: { type: 'string' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    'postgres-url': { type: 'string', default: defaultPostgresUrl() },
    'no-build': { type: 'boolean', default: false },
  },
});
const names = values.only.split(',').filter(Boolean);
const reads = scenario.READS.filter((r) => names.includes(r.name));
const engine = values.engine as EngineName;
let rounds: number, seconds: number, perBuild: number, posts: number;
try {
  if (!values.against || (engine !== 'sqlite' && engine !== 'postgres') || names.some((n) => !COMPARED.includes(n)))
    throw new UsageError('');
  rounds = Math.round(positive('rounds', values.rounds, 6));
  seconds = positive('duration', values.duration, 5);
  perBuild = Math.max(1, Math.round(positive('connections', values.connections, 32) / 2));
  posts = Math.round(positive('posts', values.posts, 10_000));
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error([err.message, USAGE].filter(Boolean).join('\n'));
  process.exit(2);
}
const log = (text: string) => process.stderr.write(`${text}\n`);

/**
 * One round: both builds under the same load at once; CPU µs per answered request of each. The
 * load generator that starts first has a small head start, so odd rounds start the other one first.
 */
async function round(
  servers: RunningServer[],
  spec: scenario.LoadSpec,
  duration: number,
  otherFirst: boolean,
): Promise<number[]> {
  const before = servers.map((s) => readCpuSeconds(s.pid));
  const runs: Array<ReturnType<typeof autocannon>> = [];
  for (const i of otherFirst ? [1, 0] : [0, 1])
    runs[i] = autocannon({ url: servers[i]!.url, connections: perBuild, duration, timeout: 30, ...spec });
  const results = await Promise.all(runs);
  return results.map((r, i) => {
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${servers[i]!.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return ((readCpuSeconds(servers[i]!.pid) - before[i]!) * 1e6) / r['2xx'];
  });
}

if (!values['no-build']) buildDist(log);
const db = await createBenchDatabase(engine, values['postgres-url']);
const servers: RunningServer[] = [];
try {
  const seeded = await seedDatabase(db, { posts, bodyKb: 5 });
  const c: scenario.ScenarioContext = { key: seeded.key, postIds: seeded.postIds, bodyBytes: 5 * 1024 };
  for (const [i, dir] of [join(ROOT, 'dist', 'src'), values.against].entries())
    servers.push(
      await startApiServer({
        mode: 'dist',
        appDir: dir,
        databaseUrl: db.database.url,
        mediaDir: join(db.workDir, 'media'),
        cpuProfDir: null,
        readCacheMb: 256,
        logLevel: 'info',
        redisUrl: engine === 'postgres' && values.redis !== 'none' ? values.redis : null,
        logFile: join(db.workDir, `api-${i}.log`),
      }),
    );
  const load = loadavg();
  log(
    `${engine}, ${c.postIds.length} posts; ${perBuild} connections to each build; load ${load.map((l) => l.toFixed(2)).join(' ')}`,
  );
  // Every post once on each build, so both caches are full before the first round.
  await Promise.all(servers.map((s) => scenario.visitAll(s, scenario.getPost(c), perBuild, c.postIds.length)));
  const lines = [
    `| read | this build µs | ${values.against} µs | other ÷ this (median; each round's range) |`,
    '|---|---:|---:|---|',
  ];
  for (const { label, spec } of reads) {
    log(`${label}: warm-up, then ${rounds} rounds of ${seconds} s`);
    await round(servers, spec(c), 2, false);
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const [a, b] = await round(servers, spec(c), seconds, r % 2 === 1);
      mine.push(a!);
      theirs.push(b!);
      log(`  round ${r + 1}: ${a!.toFixed(1)} µs against ${b!.toFixed(1)} µs (${(b! / a!).toFixed(3)})`);
    }
    const ratios = theirs.map((t, i) => t / mine[i]!);
    lines.push(
      `| ${label} | ${median(mine).toFixed(1)} | ${median(theirs).toFixed(1)} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}) |`,
    );
  }
  console.log(
    `\nCPU µs per request, side by side; ${cpus().length} CPUs, node ${process.version}; load at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(lines.join('\n'));
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await db.drop();
}
