// `npm run bench:compare -- --against DIR`: this build and another (DIR holds its main.js, for
// example a second checkout's dist/src) serve one seeded database at the same time, each driven
// by half the connections, round after round; every round prints each build's CPU per request.
//
// Why at the same time: this machine's speed drifts by 10-30 % within minutes, so two builds
// measured one after the other differ by more than most changes do. Measured side by side, both
// builds see the same drift: two copies of one build stay within about 3 % of each other round
// by round, which is what a change has to beat. Reads only: writes from two processes would
// queue behind one another's on the database, and that queue is not either build's cost.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { readCpuSeconds, startApiServer, ROOT, type RunningServer } from './lib/processes.js';
import * as scenario from './lib/scenarios.js';
import { createBenchDatabase, seedDatabase } from './lib/seed.js';
import type { EngineName } from './lib/options.js';

const ROWS = {
  get: { label: 'GET /v1/blog/posts/{id}', spec: scenario.getPost },
  list: { label: 'GET /v1/blog/posts?limit=20', spec: scenario.listPosts },
  me: { label: 'GET /v1/me', spec: scenario.me },
} as const;
type RowName = keyof typeof ROWS;

const USAGE = `usage: npm run bench:compare -- --against DIR [options]
  --against DIR        the other build's folder holding main.js (required)
  --engine E           sqlite (default) or postgres (with Redis at --redis)
  --only ROWS          reads to compare, of get,list,me (default all)
  --rounds N           side-by-side rounds per read (default 6)
  --duration N         seconds per round (default 5)
  --connections N      connections in all, half to each build (default 32)
  --posts N            posts seeded (default 10000)
  --redis URL|none     REDIS_URL of both builds on PostgreSQL (default redis://127.0.0.1:6379)
  --no-build           this build's dist/src as it is (default: npm run build first)`;

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    engine: { type: 'string', default: 'sqlite' },
    only: { type: 'string', default: 'get,list,me' },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    posts: { type: 'string', default: '10000' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'no-build': { type: 'boolean', default: false },
  },
});
const rows = values.only.split(',').filter(Boolean) as RowName[];
const engine = values.engine as EngineName;
if (!values.against || (engine !== 'sqlite' && engine !== 'postgres') || rows.some((r) => !(r in ROWS))) {
  console.error(USAGE);
  process.exit(2);
}
const rounds = Number(values.rounds);
const seconds = Number(values.duration);
const perBuild = Math.max(1, Math.round(Number(values.connections) / 2));
const log = (text: string) => process.stderr.write(`${text}\n`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

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
  const order = otherFirst ? [1, 0] : [0, 1];
  const started = new Map(
    order.map((i) => [i, autocannon({ url: servers[i]!.url, connections: perBuild, duration, timeout: 30, ...spec })]),
  );
  const results = await Promise.all([started.get(0)!, started.get(1)!]);
  return results.map((r, i) => {
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${servers[i]!.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return ((readCpuSeconds(servers[i]!.pid) - before[i]!) * 1e6) / r['2xx'];
  });
}

if (!values['no-build']) {
  log('building (npm run build)…');
  if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0)
    throw new Error('npm run build failed');
}
const db = await createBenchDatabase(engine, values['postgres-url']);
const servers: RunningServer[] = [];
try {
  const seeded = await seedDatabase(db, { posts: Number(values.posts), bodyKb: 5 });
  const c: scenario.ScenarioContext = { key: seeded.key, postIds: seeded.postIds, bodyBytes: 5 * 1024 };
  const builds = [
    { name: 'this build', dir: join(ROOT, 'dist', 'src') },
    { name: values.against, dir: values.against },
  ];
  for (const [i, build] of builds.entries())
    servers.push(
      await startApiServer({
        mode: 'dist',
        appDir: build.dir,
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
  for (const name of rows) {
    const { label, spec } = ROWS[name];
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
