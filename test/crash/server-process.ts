// A real server process (`node --import tsx src/main.ts`) on a free port, for tests that must
// kill it the hard way. Start waits for the "listening" log line, nothing else.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** SIGKILL: no shutdown hook, no flush, exactly like a crash. Resolves once it is gone. */
  kill9(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    // PORT=0: the system picks a free port and the log line names it (no race on a probed port).
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += String(c)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start listening within ${START_TIMEOUT_MS} ms\n${stderr}`));
    }, START_TIMEOUT_MS);
    const exitedEarly = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (${code ?? signal})\n${stderr}`));
    };
    child.once('exit', exitedEarly);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      child.off('exit', exitedEarly);
      // Keep draining stdout so the child never blocks on a full pipe.
      child.stdout!.resume();
      resolve({
        child,
        baseUrl: m[1],
        async kill9() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}
