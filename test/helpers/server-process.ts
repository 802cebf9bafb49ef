// A real server process (`node --import tsx src/main.ts`) with its own environment, listening on
// a free port, for what only a process shows: signals, exit codes, start-up messages.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect } from 'node:net';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves when a stdout line matches (the server's own log is the signal, not elapsed time). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (a signal's death reads as null). */
  exited: Promise<number | null>;
  /** SIGKILL: no shutdown hook, no flush, exactly like a crash. Resolves once it is gone. */
  kill(): Promise<number | null>;
  /** Sends the signal (default SIGTERM) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface SpawnedOutput {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** A server process; no shutdown drain unless `env` sets SHUTDOWN_DRAIN_MS (no balancer in front to wait for). */
export function spawnMain(env: Record<string, string>): SpawnedOutput {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const spawned = spawnMain(env);
  const waitForOutput = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(spawned.stdout());
        if (match) {
          finish();
          resolve(match[0]);
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(
            `no output matching ${pattern} within ${timeoutMs} ms\nstdout:\n${spawned.stdout()}\nstderr:\n${spawned.stderr()}`,
          ),
        );
      }, timeoutMs);
      const onExit = () => {
        finish();
        reject(
          new Error(
            `the server exited before printing ${pattern}\nstdout:\n${spawned.stdout()}\nstderr:\n${spawned.stderr()}`,
          ),
        );
      };
      const finish = () => {
        clearTimeout(timer);
        spawned.child.stdout!.off('data', check);
        spawned.child.off('exit', onExit);
      };
      spawned.child.stdout!.on('data', check);
      spawned.child.once('exit', onExit);
      check();
    });
  const listening = await waitForOutput(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
  const port = Number(/:(\d+)$/.exec(listening)![1]);
  return {
    ...spawned,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    waitForOutput,
    kill: () => {
      if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill('SIGKILL');
      return spawned.exited;
    },
    stop: (signal: NodeJS.Signals = 'SIGTERM') => {
      if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(signal);
      return spawned.exited;
    },
  };
}

/** Resolves once a new connection to the port is refused (the listener has closed). */
export async function waitUntilRefused(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });
    if (refused) return;
    if (Date.now() > until) throw new Error(`port ${port} still accepts connections`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
