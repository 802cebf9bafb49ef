// A flood of slow connections without a key, through each reference load balancer
// (deploy/nginx.conf, deploy/haproxy.cfg, deploy/Caddyfile, run by Debian's nginx, HAProxy and
// Caddy over TLS on loopback): a few hundred connections from one address complete their TLS
// handshake, send half a request's headers and stop. A normal request from another address still
// answers at once, HAProxy refuses the flood's connections past its per-address limit, and each
// balancer closes the slow connections by its header timeout (docs/operations.md, "Timeouts and
// connection limits"). The balancers run on the real clock: the test waits for the closes they
// make, bounded by the configured timeout.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { createConnection } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import { describeOnPostgres, postgresEngine } from '../helpers/engines.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { missingBalancer, startBalancer, type BalancerName } from './balancers.js';

const BALANCERS: BalancerName[] = ['nginx', 'haproxy', 'caddy'];
const missing = BALANCERS.map(missingBalancer).filter(Boolean).join('; ');
if (process.env.CI === 'true' && missing) throw new Error(`CI needs nginx, HAProxy and Caddy: ${missing}`);

/** The flood: connections from FLOOD_ADDRESS (loopback, but not the normal client's address). */
const SLOW_CONNECTIONS = 300;
const FLOOD_ADDRESS = '127.0.0.2';
/** The balancers' header timeout (nginx client_header_timeout, HAProxy timeout http-request, Caddy read_header). */
const HEADER_TIMEOUT_MS = 10_000;
/** HAProxy's connections per client address (its frontend's stick table). */
const HAPROXY_PER_ADDRESS = 100;
/** A normal request on a new connection, handshake included, on a busy two-core machine. */
const PROMPT_MS = 2000;

interface SlowConnection {
  /** Whether the TLS handshake completed (HAProxy refuses connections past its limit before it). */
  opened: boolean;
  closed: Promise<void>;
  socket: TLSSocket;
}

/** A connection that completes its handshake, sends half of a request's headers, and stops. */
function slowConnection(port: number, ca: string): Promise<SlowConnection> {
  return new Promise((resolve) => {
    const tcp = createConnection({ host: '127.0.0.1', port, localAddress: FLOOD_ADDRESS });
    const socket = connect({ socket: tcp, host: '127.0.0.1', ca });
    tcp.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    // Read whatever comes (HAProxy answers 408 before it closes), so that the close is seen.
    socket.resume();
    socket.once('secureConnect', () => {
      socket.write('GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      resolve({ opened: true, closed, socket });
    });
    socket.once('close', () => resolve({ opened: false, closed, socket }));
  });
}

/** A normal request on a new connection: its status, body and how long it took. */
function normalRequest(baseUrl: string, ca: string, key: string) {
  const started = performance.now();
  return new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
    const req = request(
      `${baseUrl}/v1/me`,
      { ca, agent: false, localAddress: '127.0.0.1', headers: { authorization: `Bearer ${key}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const skip = postgresEngine.skip ?? (missing || undefined);

describeOnPostgres('slow connections without a key behind the reference load balancers', (postgres) => {
  let t: TestApp;
  let server: ServerProcess;
  let key: string;
  before(async () => {
    if (skip) return;
    t = await startTestApp(postgres);
    server = await startServerProcess({ DATABASE_URL: t.config.database.url, MIGRATE_ON_START: 'false' });
    key = await t.issueKey(await t.createStore(), ['read_blog']);
  });
  after(async () => {
    await server?.stop();
    await t?.close();
  });

  for (const name of BALANCERS) {
    it(
      `${name}: ${SLOW_CONNECTIONS} slow connections leave a normal request prompt and are closed by the header timeout`,
      { skip },
      async () => {
        // One API process behind every upstream entry: the flood never reaches it.
        const balancer = await startBalancer(name, [server.port, server.port, server.port]);
        const port = Number(new URL(balancer.baseUrl).port);
        const slow: SlowConnection[] = [];
        try {
          const started = performance.now();
          // In batches, as a flood arrives: the listen queues are not what is tested.
          for (let i = 0; i < SLOW_CONNECTIONS; i += 50)
            slow.push(...(await Promise.all(Array.from({ length: 50 }, () => slowConnection(port, balancer.ca)))));
          const opened = slow.filter((c) => c.opened).length;
          if (name === 'haproxy') {
            assert.equal(opened, HAPROXY_PER_ADDRESS, 'HAProxy refuses the address’s connections past its limit');
          } else {
            assert.equal(opened, SLOW_CONNECTIONS, `${name} takes every connection`);
          }

          for (let i = 0; i < 3; i++) {
            const res = await normalRequest(balancer.baseUrl, balancer.ca, key);
            assert.equal(res.status, 200, res.body);
            assert.ok(res.ms < PROMPT_MS, `a normal request took ${Math.round(res.ms)} ms beside the flood`);
          }

          // The balancer closes every slow connection once its header timeout has passed.
          const deadline = started + HEADER_TIMEOUT_MS + 5000;
          const allClosed = Promise.all(slow.map((c) => c.closed)).then(() => true);
          const late = new Promise<false>((resolve) => {
            const timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()));
            void allClosed.then(() => clearTimeout(timer));
          });
          const stillOpen = () => slow.filter((c) => !c.socket.closed).length;
          assert.ok(await Promise.race([allClosed, late]), `${stillOpen()} slow connections still open`);
        } finally {
          for (const c of slow) c.socket.destroy();
          await balancer.close();
        }
      },
    );
  }
});
