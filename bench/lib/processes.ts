// Server processes under test: the API (built output or source) and the bare node:http ceiling,
// each a separate process on loopback, with their resident memory read from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerMode } from './options.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * `npm run build`, so the servers run this project's current code from dist/. `otherwise` names
 * the caller's way around a failed build, if it has one.
 */
export function buildDist(log: (text: string) => void, otherwise?: string): void {
  log('building (npm run build)…');
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error(`npm run build failed; fix it${otherwise ? ` or ${otherwise}` : ''}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface Memory {
  /** Current resident set, MB. */
  rssMb: number;
  /** Peak resident set over the process's life (VmHWM), MB. */
  hwmMb: number;
}

export function readMemory(pid: number): Memory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** CPU time (user + system) the process has used so far, in seconds. */
export function readCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * The whole machine's CPU time so far, in seconds summed over its CPUs: busy (user, nice,
 * system, interrupts, steal) and idle (idle, waiting for I/O). Every process counts: the server,
 * its database and Redis, and the load generator. NaN off Linux.
 */
export function readMachineCpu(): { busy: number; idle: number } {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = cpu;
    return {
      busy: (user + nice + system + irq + softirq + (steal ?? 0)) / CLOCK_TICKS,
      idle: (idle + iowait) / CLOCK_TICKS,
    };
  } catch {
    return { busy: NaN, idle: NaN };
  }
}

/**
 * CPU time (user + system, seconds) used so far by each process of this machine named `name`
 * (its command name, as `ps -o comm` shows it), by pid: PostgreSQL's postmaster and backends are
 * all `postgres`. Empty off Linux.
 */
export function readProcessesCpu(name: string): Map<number, number> {
  const byPid = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return byPid;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended since the listing
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byPid.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
  }
  return byPid;
}

/**
 * The CPU seconds the processes of `after` used since `before` (readProcessesCpu): a process
 * started in between counts whole; one that ended in between took its time with it and counts
 * nothing (a connection pool closing idle connections), so this under-counts rather than goes
 * below zero.
 */
export function cpuGrowth(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, now] of after) seconds += now - (before.get(pid) ?? 0);
  return seconds;
}

/** USER_HZ: 100 on every Linux build node runs on here. */
const CLOCK_TICKS = 100;

/** Samples VmRSS every 100 ms until stopped; returns the highest value seen (MB). */
export function sampleRss(pid: number): { stop(): number } {
  let peak = readMemory(pid)?.rssMb ?? NaN;
  const timer = setInterval(() => {
    const m = readMemory(pid);
    if (m && !(m.rssMb <= peak)) peak = m.rssMb;
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      const m = readMemory(pid);
      if (m && !(m.rssMb <= peak)) peak = m.rssMb;
      return peak;
    },
  };
}

export interface RunningServer {
  name: string;
  pid: number;
  url: string;
  /** Whether it answers SIGUSR2 with a memory and query report (bench/report-on-signal.mjs). */
  reports: boolean;
  output(): string;
  stop(): Promise<void>;
}

/** Live memory of a server after a full garbage collection, MB, and its PostgreSQL queries so far (see bench/report-on-signal.mjs). */
export interface MemoryAfterGc {
  heapUsedMb: number;
  externalMb: number;
  rssMb: number;
  queries: number | null;
  /** Commands sent to Redis so far (null: not counted). */
  redisCommands: number | null;
}

const AFTER_GC = /BENCH_MEMORY_AFTER_GC (\{.*\})\n/g;

/** Asks the API for a full collection and waits for its report (null if none comes). */
export async function memoryAfterGc(server: RunningServer, timeoutMs = 5000): Promise<MemoryAfterGc | null> {
  type Report = {
    n: number;
    heapUsed: number;
    external: number;
    rss: number;
    queries: number | null;
    redisCommands?: number | null;
  };
  const latest = (): Report | null => {
    const all = [...server.output().matchAll(AFTER_GC)];
    return all.length ? (JSON.parse(all[all.length - 1][1]) as Report) : null;
  };
  const before = latest()?.n ?? 0;
  process.kill(server.pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const m = latest();
    if (m && m.n > before) {
      return {
        heapUsedMb: m.heapUsed / 1048576,
        externalMb: m.external / 1048576,
        rssMb: m.rss / 1048576,
        queries: m.queries,
        redisCommands: m.redisCommands ?? null,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited with code ${child.exitCode} before answering:\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs / 1000} s:\n${output()}`);
}

/**
 * `stdoutFile`: the process's standard output goes to this file (the API's log, as a log
 * collector would take it) instead of through the benchmark process, which shares the CPUs.
 */
export function startProcess(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  probePath: string,
  stdoutFile?: string,
): Promise<RunningServer> {
  const stdoutFd = stdoutFile ? openSync(stdoutFile, 'a') : null;
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'] });
  if (stdoutFd !== null) closeSync(stdoutFd);
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    name,
    pid: child.pid!,
    url,
    reports: args.includes(REPORT_FLAGS[2]),
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return waitForHttp(`${url}${probePath}`, child, () => log).then(
    () => server,
    async (err) => {
      await server.stop();
      throw err;
    },
  );
}

/** Environment of a server: only what it needs, so nothing from the caller's shell leaks in. */
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...(process.env.HTML_FILTER_THREADS ? { HTML_FILTER_THREADS: process.env.HTML_FILTER_THREADS } : {}),
  };
  return { ...env, ...extra };
}

/** Folder of the app's code a server loads: --app's build, else this project's dist/src or src. */
export function appRootOf(mode: ServerMode, appDir: string | null | undefined): string {
  if (appDir) return resolve(appDir);
  return mode === 'dist' ? join(ROOT, 'dist', 'src') : join(ROOT, 'src');
}

/** Environment of a server of the app's code on `port`, over this database and media folder. */
export function appServerEnv(
  port: number,
  databaseUrl: string,
  mediaDir: string,
  appRoot: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return serverEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    MEDIA_DIR: mediaDir,
    BENCH_APP_ROOT: appRoot,
    ...extra,
  });
}

export interface ApiServerOptions {
  mode: ServerMode;
  /** Folder of another build's main.js; default this project's dist/src or src. */
  appDir?: string | null;
  databaseUrl: string;
  mediaDir: string;
  cpuProfDir: string | null;
  readCacheMb: number;
  /** Runs bench/server-variant.ts (same start-up as main, with a durability setting) instead of main. */
  sqliteSynchronous?: 'FULL' | 'NORMAL';
  /** LOG_LEVEL of the API (the production default is info). */
  logLevel: string;
  /** REDIS_URL of the API (shared rate limits and in-flight counts), or null for none. */
  redisUrl: string | null;
  /** Where the API's standard output (its log) is written. */
  logFile: string;
  /** More environment variables of the API. */
  extraEnv?: Record<string, string>;
}

/** Node flags of every server under test: the memory and query report on SIGUSR2. */
export const REPORT_FLAGS = [
  '--expose-gc',
  '--import',
  pathToFileURL(join(ROOT, 'bench', 'report-on-signal.mjs')).href,
];

export async function startApiServer(options: ApiServerOptions): Promise<RunningServer> {
  const port = await freePort();
  // Lets the benchmark ask for a full collection and the query count between rows (memoryAfterGc).
  const nodeFlags: string[] = [...REPORT_FLAGS];
  if (options.cpuProfDir) nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${resolve(options.cpuProfDir)}`);
  const appRoot = appRootOf(options.mode, options.appDir);
  let entry: string[];
  if (options.sqliteSynchronous) entry = ['--import', 'tsx', join(ROOT, 'bench', 'server-variant.ts')];
  else if (options.mode === 'dist' || options.appDir) entry = [join(appRoot, 'main.js')];
  else entry = ['--import', 'tsx', join(appRoot, 'main.ts')];
  const env = appServerEnv(port, options.databaseUrl, options.mediaDir, appRoot, {
    READ_CACHE_MB: String(options.readCacheMb),
    LOG_LEVEL: options.logLevel,
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...(options.sqliteSynchronous ? { BENCH_SQLITE_SYNCHRONOUS: options.sqliteSynchronous } : {}),
    ...(options.extraEnv ?? {}),
  });
  return startProcess('api', [...nodeFlags, ...entry], env, port, '/v1/me', options.logFile);
}

/** The one-query ceiling (PostgreSQL): bench/one-query-server.mjs. */
export async function startOneQueryServer(
  payloadFile: string,
  databaseUrl: string,
  postId: number,
): Promise<RunningServer> {
  const port = await freePort();
  const env = serverEnv({
    PORT: String(port),
    BENCH_PAYLOAD_FILE: payloadFile,
    DATABASE_URL: databaseUrl,
    BENCH_POST_ID: String(postId),
  });
  return startProcess('one-query', [...REPORT_FLAGS, join(ROOT, 'bench', 'one-query-server.mjs')], env, port, '/');
}

export async function startBareServer(payloadFile: string): Promise<RunningServer> {
  const port = await freePort();
  return startProcess(
    'bare',
    [join(ROOT, 'bench', 'bare-server.mjs')],
    serverEnv({ PORT: String(port), BENCH_PAYLOAD_FILE: payloadFile }),
    port,
    '/',
  );
}

/** The framework ceiling (bench/fastify-server.mjs); its log goes to `logFile` like the API's. */
export async function startFastifyServer(payloadFile: string, logFile: string): Promise<RunningServer> {
  const port = await freePort();
  return startProcess(
    'fastify',
    [join(ROOT, 'bench', 'fastify-server.mjs')],
    serverEnv({ PORT: String(port), BENCH_PAYLOAD_FILE: payloadFile }),
    port,
    '/',
    logFile,
  );
}
