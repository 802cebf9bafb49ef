// The HTTP server and its limits on slow or idle clients. Node bounds the time to receive the
// headers and closes idle keep-alive connections; this guard bounds the rest:
// - a body that is not multipart must arrive whole within HTTP_BODY_TIMEOUT_MS;
// - a multipart body (an upload, which may be large and slow) has no total limit but must bring
//   at least HTTP_UPLOAD_MIN_BYTES in every HTTP_UPLOAD_IDLE_TIMEOUT_MS, so a client trickling a
//   byte now and then is idle however regularly it sends;
// - connections that have not yet sent one complete request are capped, as are all connections.
// A cut client's connection is destroyed: the request is aborted, so its in-flight slot is
// given back (the pipeline releases slots on abort) and nothing is written for it.
// An answer sent before its request's body arrived (a refusal) is followed by a lingering close:
// the server stops writing but keeps reading and dropping the rest of the body, for at most
// HTTP_BODY_TIMEOUT_MS and the largest body of its kind, then closes. Closing at once would make
// the kernel answer the client's next bytes with a reset, and a client still sending (Node's
// fetch, the SDK) would get EPIPE instead of the answer (docs/operations.md, lingering close).
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { OpsConfig } from '../config/config.js';

/** The operator's limits on slow and idle clients (documented on OpsConfig). */
export type ConnectionLimits = Pick<
  OpsConfig,
  | 'headersTimeoutMs'
  | 'bodyTimeoutMs'
  | 'uploadIdleTimeoutMs'
  | 'uploadMinBytes'
  | 'keepAliveTimeoutMs'
  | 'maxConnections'
  | 'maxPendingConnections'
>;

/** Why a connection was refused or cut (the metric's label). */
export type GuardEvent =
  'refused_pending_limit' | 'cut_body_timeout' | 'cut_upload_idle' | 'cut_lingering' | 'closed_refusal_unread';

/** The largest body a client may send, by kind: what a lingering close reads at most. */
export interface LargestBodies {
  json: number;
  multipart: number;
}

interface Lingering {
  socket: Socket;
  startedAt: number;
  startBytes: number;
  maxBytes: number;
}

/** Node's http server ends a connection after its last answer with this (net.Socket's own method). */
type ClosableSocket = Socket & { destroySoon?: () => void };

interface TrackedBody {
  request: IncomingMessage;
  socket: Socket;
  startedAt: number;
  multipart: boolean;
  /** Upload idle rule: bytes read from the socket when the current interval began. */
  intervalStartedAt: number;
  intervalStartBytes: number;
}

export class ConnectionGuard {
  /** Connections that have not sent a complete request yet (no request at all, or a body still arriving). */
  private readonly pending = new Set<Socket>();
  private readonly bodies = new Set<TrackedBody>();
  private readonly lingering = new Map<Socket, Lingering>();
  /** Sockets of this server (inject() has none). */
  private readonly admitted = new WeakSet<Socket>();
  private readonly listeners = new Set<(event: GuardEvent) => void>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly limits: ConnectionLimits,
    /** How often arriving bodies are looked at: the precision of both body limits. */
    private readonly sweepEveryMs: number,
    private readonly largestBodies: LargestBodies = {
      json: Number.MAX_SAFE_INTEGER,
      multipart: Number.MAX_SAFE_INTEGER,
    },
  ) {}

  /** Called for each refusal or cut (metrics count them). */
  onEvent(listener: (event: GuardEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get pendingConnections(): number {
    return this.pending.size;
  }

  /** Builds the server Fastify runs on (its serverFactory). */
  createServer(handler: RequestListener): Server {
    const { limits } = this;
    const server = createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        // Node's whole-request limit would also end uploads, which have no total limit here;
        // bodies are bounded by this guard instead.
        requestTimeout: 0,
        // Node checks the header deadline this often (default 30 s, too coarse for a 20 s limit).
        connectionsCheckingInterval: this.sweepEveryMs,
        // Without a Host header Node answers a bare 400 outside the envelope; every route here
        // works without one (addresses are built from PUBLIC_BASE_URL), so the request goes on.
        requireHostHeader: false,
      },
      (request: IncomingMessage, response: ServerResponse) => {
        // A request after the body of one answered with Connection: close: not served.
        if (this.lingering.has(request.socket)) return void request.socket.destroy();
        this.track(request);
        handler(request, response);
      },
    );
    // An Expect header other than 100-continue would get Node's own 417; the expectation is
    // ignored instead (RFC 9110 lets a server do so) and the request answered as usual.
    server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      this.track(request);
      handler(request, response);
    });
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    server.maxConnections = limits.maxConnections;
    server.on('connection', (socket: Socket) => this.admit(socket));
    server.on('listening', () => this.startSweeping());
    server.on('close', () => this.stopSweeping());
    return server;
  }

  private admit(socket: Socket): void {
    if (this.pending.size >= this.limits.maxPendingConnections) {
      this.emit('refused_pending_limit');
      socket.destroy();
      return;
    }
    this.pending.add(socket);
    this.admitted.add(socket);
    socket.once('close', () => {
      this.pending.delete(socket);
      this.lingering.delete(socket);
    });
  }

  /**
   * The answer to this request closes its connection while the body may still be arriving:
   * once the answer is written the connection lingers (see the top of this file) instead of
   * closing at once. Node's server closes a connection after its last answer with
   * socket.destroySoon(); this socket's own is replaced.
   */
  lingerAfterAnswer(request: IncomingMessage): void {
    const socket = request.socket as ClosableSocket;
    if (!this.admitted.has(socket) || request.complete || this.lingering.has(socket)) return;
    const multipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
    const maxBytes = multipart ? this.largestBodies.multipart : this.largestBodies.json;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below as closeAtOnce.call(socket)
    const closeAtOnce = socket.destroySoon;
    socket.destroySoon = () => {
      if (socket.destroyed) return;
      // The whole body arrived meanwhile: nothing is left to read, so close as Node would.
      if (request.complete && closeAtOnce) return closeAtOnce.call(socket);
      // Half-close: the answer and a FIN go out; reading goes on (the parser drops the body).
      socket.end();
      // Reading must go on for the rest of the body and the client's own close to arrive: the
      // request may have been left paused by whoever stopped reading it (a refused upload's
      // parser), and a paused connection is read by no one, and keeps no process or shutdown
      // waiting on it awake until the sweep cuts it.
      request.unpipe();
      request.resume();
      this.lingering.set(socket, { socket, startedAt: Date.now(), startBytes: socket.bytesRead, maxBytes });
      // The client has sent everything it will and closed its side: nothing left to wait for.
      socket.once('end', () => socket.destroy());
    };
  }

  /**
   * The answer to this request closes its connection while the body may still be arriving, and
   * the rest is not read (the key's lingering allowance is spent: linger-allowance.ts): Node
   * closes the connection once the answer is written. Counted for the metric.
   */
  closeAfterAnswer(request: IncomingMessage): void {
    if (this.admitted.has(request.socket) && !request.complete) this.emit('closed_refusal_unread');
  }

  private track(request: IncomingMessage): void {
    const socket = request.socket;
    // A request without a body (no framing: RFC 9112, 6.3) completes in the same parse as its
    // headers, just after this: nothing to watch, and no timer or listener made for it on
    // every read.
    if (requestWhole(request)) {
      this.pending.delete(socket);
      return;
    }
    // A later request on a kept-alive connection is pending again while its body arrives.
    if (!socket.destroyed) this.pending.add(socket);
    const now = Date.now();
    const body: TrackedBody = {
      request,
      socket,
      startedAt: now,
      multipart: /^multipart\//i.test(request.headers['content-type'] ?? ''),
      intervalStartedAt: now,
      intervalStartBytes: socket.bytesRead,
    };
    this.bodies.add(body);
    const settle = () => {
      if (!request.complete) return;
      this.bodies.delete(body);
      this.pending.delete(socket);
    };
    request.once('close', () => {
      settle();
      this.bodies.delete(body);
    });
    // A body that arrived with its headers completes in the same parse, just after this.
    setImmediate(settle);
  }

  /** One pass over the bodies still arriving. */
  private sweep(): void {
    const now = Date.now();
    for (const linger of this.lingering.values()) {
      const { socket } = linger;
      if (
        now - linger.startedAt >= this.limits.bodyTimeoutMs ||
        socket.bytesRead - linger.startBytes > linger.maxBytes
      ) {
        this.lingering.delete(socket);
        this.emit('cut_lingering');
        socket.destroy();
      }
    }
    const { bodyTimeoutMs, uploadIdleTimeoutMs, uploadMinBytes } = this.limits;
    for (const body of this.bodies) {
      if (body.request.complete || body.socket.destroyed) {
        this.bodies.delete(body);
        this.pending.delete(body.socket);
        continue;
      }
      if (!body.multipart) {
        if (now - body.startedAt >= bodyTimeoutMs) this.cut(body, 'cut_body_timeout');
        continue;
      }
      if (now - body.intervalStartedAt >= uploadIdleTimeoutMs) {
        if (body.socket.bytesRead - body.intervalStartBytes < uploadMinBytes) {
          this.cut(body, 'cut_upload_idle');
          continue;
        }
        body.intervalStartedAt = now;
        body.intervalStartBytes = body.socket.bytesRead;
      }
    }
  }

  private cut(body: TrackedBody, event: GuardEvent): void {
    this.bodies.delete(body);
    this.emit(event);
    body.socket.destroy();
  }

  private emit(event: GuardEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), this.sweepEveryMs);
    // The sweep alone never keeps the process running.
    this.sweeper.unref();
  }

  private stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}

/**
 * Whether nothing of this request is left to arrive: its body is read, or it has none (then it
 * is whole from its headers on, even before Node's parser marks it complete).
 */
export function requestWhole(request: IncomingMessage): boolean {
  return request.complete || hasNoBody(request);
}

function hasNoBody(request: IncomingMessage): boolean {
  const { headers } = request;
  return headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0';
}

/** Checked often enough that each limit holds to within about a quarter of itself, at most a second late. */
export function sweepIntervalFor(limits: ConnectionLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs, limits.uploadIdleTimeoutMs);
  return Math.max(10, Math.min(1000, Math.floor(shortest / 4)));
}
