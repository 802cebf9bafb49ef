// A redis-server of a test's own on a free loopback port, for tests that flush, restart, fill or
// restore Redis (never the shared one other test processes use). Its data folder is its own, so a
// snapshot (SAVE) can be kept and loaded again by a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { unusedPort } from './ports.js';

export interface PrivateRedis {
  url: string;
  port: number;
  /** A plain client of the test's (not the code under test's). */
  admin: Redis;
  /** SAVE, and keep a copy of the snapshot under `name`. */
  snapshot(name: string): Promise<void>;
  /** Stops Redis at once (no save) and starts it again, from the snapshot `name` when given, else empty. */
  restart(from?: string): Promise<void>;
  /** Stops Redis at once (no save); start() brings it back empty. */
  kill(): Promise<void>;
  start(from?: string): Promise<void>;
  stop(): Promise<void>;
}

export interface PrivateRedisOptions {
  /** Extra redis-server arguments, e.g. ['--maxmemory', '2mb', '--maxmemory-policy', 'allkeys-lru']. */
  args?: string[];
}

export async function startPrivateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const port = await unusedPort();
  const dir = await mkdtemp(join(tmpdir(), 'blogapi-redis-'));
  let server: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (from?: string) => {
    await rm(join(dir, 'dump.rdb'), { force: true });
    if (from) await copyFile(join(dir, `${from}.rdb`), join(dir, 'dump.rdb'));
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--dbfilename',
        'dump.rdb',
        '--save',
        '',
        '--appendonly',
        'no',
        ...(options.args ?? []),
      ],
      { stdio: 'ignore' },
    );
    server = child;
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once('error', (err) => reject(new Error(`redis-server could not be started: ${err.message}`)));
      child.once('spawn', () => resolve());
    });
    // Ready once it answers PING (it answers LOADING while it reads a snapshot).
    for (let attempt = 0; ; attempt++) {
      const probe = new Redis(port, '127.0.0.1', { retryStrategy: () => 20, maxRetriesPerRequest: null });
      probe.on('error', () => undefined);
      try {
        await probe.ping();
        break;
      } catch (err) {
        if (attempt > 200) throw err;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        probe.disconnect();
      }
    }
  };
  const kill = async () => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    await exited;
    server = null;
  };

  await launch();
  const admin = new Redis(port, '127.0.0.1', { retryStrategy: () => 20, maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    admin,
    async snapshot(name) {
      await admin.save();
      await copyFile(join(dir, 'dump.rdb'), join(dir, `${name}.rdb`));
    },
    async restart(from) {
      await kill();
      await launch(from);
    },
    kill,
    start: launch,
    async stop() {
      admin.disconnect();
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
