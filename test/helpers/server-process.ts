// Real server and CLI processes over one database, as in production: `src/main.ts` listening on
// a port of its own, and `src/cli/bin.ts` run to completion.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';

function freePort(): Promise<number> {
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
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `src/main.ts` as its own process and resolves once it answers HTTP. */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (d: Buffer) => {
    output += d;
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    // Readiness only (not a time rule): the server is up once it answers HTTP.
    const probe = async (attempt: number): Promise<void> => {
      try {
        await fetch(`http://127.0.0.1:${port}/v1/me`);
        resolve();
      } catch {
        if (attempt > 600) return reject(new Error(`server did not start: ${output}`));
        setTimeout(() => void probe(attempt + 1), 50);
      }
    };
    void probe(0);
  });
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A request over HTTP, answered in the shape of Fastify's inject() (for the shared assertions). */
export async function httpRequest(base: string, method: string, path: string, key?: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const responseHeaders: Record<string, string> = {};
  res.headers.forEach((value, name) => (responseHeaders[name] = value));
  return { statusCode: res.status, headers: responseHeaders, body: text, payload: text, json: () => JSON.parse(text) } as unknown as LightMyRequestResponse;
}

/** Runs one operator command as its own process, to completion. */
export function runCli(databaseUrl: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
