// The reference load-balancer configurations of deploy/, run for real (Debian's nginx, HAProxy
// and Caddy) on loopback: the files are used as they are, with only the addresses (listen ports,
// the API processes) and the files nginx writes (its pid, log and temporary files) replaced, and a
// self-signed certificate for 127.0.0.1 made at the start.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { missingTool } from '../helpers/tools.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unusedPort } from '../helpers/ports.js';

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));

export type BalancerName = 'nginx' | 'haproxy' | 'caddy';

export interface Balancer {
  name: BalancerName;
  /** https://127.0.0.1:<port>, TLS terminated by the balancer. */
  baseUrl: string;
  /** The certificate clients trust for it. */
  ca: string;
  log(): string;
  close(): Promise<void>;
}

/** Why a test cannot run here without the balancer (its Debian package bears its name; CI installs it). */
export function missingBalancer(name: BalancerName): string | undefined {
  return missingTool(name, name);
}

function selfSignedCertificate(dir: string): { cert: string; key: string; both: string } {
  const cert = join(dir, 'fullchain.pem');
  const key = join(dir, 'privkey.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  const both = join(dir, 'haproxy.pem');
  writeFileSync(both, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'));
  return { cert, key, both };
}

/** Starts the balancer in front of the API processes on `apiPorts` (in the order api-1, api-2, …). */
export async function startBalancer(name: BalancerName, apiPorts: number[]): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), `blogapi-${name}-`));
  const certificate = selfSignedCertificate(dir);
  const httpsPort = await unusedPort();
  const httpPort = await unusedPort();
  const api = (text: string) =>
    text.replace(/\bapi-(\d):8080\b/g, (_, n: string) => `127.0.0.1:${apiPorts[Number(n) - 1]}`);
  let child: ChildProcess;
  if (name === 'nginx') {
    const replace = (text: string, from: string, to: string) => {
      if (!text.includes(from)) throw new Error(`deploy/nginx.conf no longer has ${from}`);
      return text.replace(from, to);
    };
    let config = api(readFileSync(join(DEPLOY, 'nginx.conf'), 'utf8'))
      .replace(/listen 80;/, `listen 127.0.0.1:${httpPort};`)
      .replace(/listen 443 ssl;/, `listen 127.0.0.1:${httpsPort} ssl;`)
      .replace('/etc/ssl/blog-api/fullchain.pem', certificate.cert)
      .replace('/etc/ssl/blog-api/privkey.pem', certificate.key);
    // Run in the foreground with its files in the test's folder, as a run without root does.
    config = replace(config, 'pid /run/nginx-blog-api.pid;', `pid ${dir}/nginx.pid;`);
    config = replace(config, 'error_log /var/log/nginx/blog-api-error.log', `error_log ${dir}/error.log`);
    config = `daemon off;\n${process.getuid?.() === 0 ? 'user root;\n' : ''}${config}`.replace(
      /http \{/,
      `http {\n    client_body_temp_path ${dir}/body;\n    proxy_temp_path ${dir}/proxy;\n    fastcgi_temp_path ${dir}/fastcgi;\n    uwsgi_temp_path ${dir}/uwsgi;\n    scgi_temp_path ${dir}/scgi;`,
    );
    writeFileSync(join(dir, 'nginx.conf'), config);
    child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } else if (name === 'caddy') {
    writeFileSync(join(dir, 'Caddyfile'), caddyfile(apiPorts, httpsPort, certificate));
    // Caddy keeps its data (certificates, locks) and configuration under HOME / XDG: the test's
    // folder. Its ports are the file's own placeholders.
    const env = {
      HOME: dir,
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_CONFIG_HOME: join(dir, 'config'),
      BLOG_API_HTTP_PORT: String(httpPort),
      BLOG_API_HTTPS_PORT: String(httpsPort),
    };
    child = spawn('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
  } else {
    const config = api(readFileSync(join(DEPLOY, 'haproxy.cfg'), 'utf8'))
      .replace(/bind :80\b/, `bind 127.0.0.1:${httpPort}`)
      .replace(/bind :443 /, `bind 127.0.0.1:${httpsPort} `)
      .replace('/etc/ssl/blog-api/haproxy.pem', certificate.both);
    writeFileSync(join(dir, 'haproxy.cfg'), config);
    child = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await listening(httpsPort, child, () => output);
  return {
    name,
    baseUrl: `https://127.0.0.1:${httpsPort}`,
    ca: readFileSync(certificate.cert, 'utf8'),
    log: () => output + (name === 'nginx' ? safeRead(join(dir, 'error.log')) : ''),
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      // A graceful stop waits for open requests; the load has stopped, so this is only a bound.
      const stuck = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(stuck);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * deploy/Caddyfile for loopback: the site address becomes the HTTPS listener on 127.0.0.1 with the
 * test certificate, and the upstreams found by DNS (`dynamic a`) become the three processes, listed
 * as the file says to outside Compose (which also turns its active check on). Every other
 * directive stays as in the file.
 */
function caddyfile(apiPorts: number[], httpsPort: number, certificate: { cert: string; key: string }): string {
  let config = readFileSync(join(DEPLOY, 'Caddyfile'), 'utf8');
  const replace = (pattern: RegExp, by: string) => {
    const next = config.replace(pattern, by);
    if (next === config) throw new Error(`deploy/Caddyfile no longer has ${pattern}`);
    config = next;
  };
  replace(
    /^\{\$BLOG_API_DOMAIN:localhost\} \{$/m,
    `https://127.0.0.1:${httpsPort} {\n\tbind 127.0.0.1\n\ttls ${certificate.cert} ${certificate.key}`,
  );
  replace(/^(\t+)dynamic a \{[^}]*\}$/m, `$1to ${apiPorts.map((port) => `127.0.0.1:${port}`).join(' ')}`);
  return config;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function listening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the balancer exited: ${output()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > until) throw new Error(`the balancer does not listen on ${port}: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
