// A real server process (`src/main.ts`), started as operators start it, for tests about what
// only separate processes show: races across a fleet, signals, crashes, sockets.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  base: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM (or the given signal), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `src/main.ts` with `env` over the test's environment and resolves once it answers HTTP.
 * `LOG_LEVEL` defaults to warn and `REDIS_URL` to unset, so a test opts in to what it needs.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', REDIS_URL: '', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (d: Buffer) => {
    output += d;
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    let up = false;
    void exited.then((code) => {
      if (!up) reject(new Error(`server exited with ${code}: ${output}`));
    });
    // Readiness only (not a time rule): the server is up once it answers HTTP.
    const probe = async (attempt: number): Promise<void> => {
      if (child.exitCode !== null) return;
      try {
        await fetch(`${base}/v1/me`);
        up = true;
        resolve();
      } catch {
        if (attempt > 600) return reject(new Error(`server did not start: ${output}`));
        setTimeout(() => void probe(attempt + 1), 50);
      }
    };
    void probe(0);
  });
  return {
    base,
    port,
    child,
    output: () => output,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
