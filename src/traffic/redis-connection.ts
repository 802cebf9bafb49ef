import { Command, Redis } from 'ioredis';
import { CircuitBreaker, CircuitOpenError } from '../lib/circuit-breaker.js';
import type { Timers } from '../lib/timers.js';
import type { Reporter } from './backend-error.js';

/*
 * Client settings chosen so a limit decision never waits long on a sick Redis:
 * - enableOfflineQueue: false  -> commands issued while disconnected fail at once instead of queueing;
 * - commandTimeout             -> a connected but unresponsive server cannot stall a request; it
 *                                 starts when the command is sent, and nothing holds a command back
 *                                 before that (no offline queue, no auto-pipelining), so it bounds a
 *                                 request's wait on a reply from the request's own call;
 * - connectTimeout             -> a black-holed address is given up on quickly and retried;
 * - maxRetriesPerRequest: 1    -> a command caught by a dropped connection is not replayed for long;
 * - lazyConnect: true          -> the connection is opened by the first decision, not at construction;
 * - keepAlive                  -> a peer that vanished without a word (a partition) is noticed by TCP.
 * Reconnection keeps going with ioredis' default backoff, so limits resume once Redis is back.
 *
 * The command timeout alone would make every request pay it for as long as Redis hangs (stopped,
 * or its link stalled, with the socket open): a circuit breaker (src/lib/circuit-breaker.ts) opens
 * after a few timeouts in a row, and from then on every command of every user of this connection
 * (limits, cache versions, readiness) fails at once with CircuitOpenError, so each falls back as
 * it does when Redis is refused; a PING every second closes it when Redis answers again.
 *
 * Why lazy: the client is created while the process starts up (database migrations, route and schema
 * compilation). That work can keep the event loop busy for longer than the connect timeout; the
 * timer then fires before the already-established connection is noticed, the attempt counts as
 * failed, and the first requests after start-up would fail open although Redis is healthy.
 * Connecting on first use starts the attempt when the process is serving requests. It also means
 * a process that never takes a decision (e.g. an operator command) never connects at all.
 */
// Generous enough that a busy event loop (a large body being filtered) does not read as an outage.
export const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 1000;
/** Upper bound on how long a request waits for the first connection attempt to settle. */
const INITIAL_CONNECT_WAIT_MS = 1000;
/** TCP keepalive's first probe after this much silence on the socket. */
const KEEPALIVE_MS = 10_000;

/** ioredis's words for a command that got no answer within commandTimeout. */
export const isRedisTimeout = (err: unknown): boolean => err instanceof Error && err.message === 'Command timed out';

/** The part of ioredis's socket (a net.Socket or tls.TLSSocket) that batching uses. */
interface WritableSocket {
  cork(): void;
  uncork(): void;
}

export interface RedisConnection {
  readonly client: Redis;
  /**
   * Opens the connection on first use; resolves once that first attempt has settled either way,
   * or after a bounded wait. Resolves at once afterwards (and after close).
   */
  whenSettled(): Promise<void>;
  /** Commands sent so far (each command of a batched write counts). */
  commandCount: () => number;
  /** Opens after repeated timeouts; commands then fail at once until a probe answers. */
  readonly breaker: CircuitBreaker;
  /**
   * Sends one command past the breaker (a slot's release queued behind a command that timed
   * out: it must reach Redis in order, whatever the breaker says). Never counted by the breaker.
   */
  sendPastBreaker(name: string, args: Array<string | number>): Promise<unknown>;
  close(): Promise<void>;
}

export function openRedisConnection(redisUrl: string, report: Reporter, timers?: Timers): RedisConnection {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    keepAlive: KEEPALIVE_MS,
    maxRetriesPerRequest: 1,
    // Off: the turn's commands are batched by corking the socket instead (below).
    enableAutoPipelining: false,
  });
  // Every command, pipelined or not, goes through sendCommand: counted for the tests that pin
  // the Redis commands of a hot request, and watched by the breaker.
  let commands = 0;
  const send = client.sendCommand.bind(client);
  const pastBreaker = new WeakSet<Command>();
  const sendPast = (command: Command): Promise<unknown> => {
    pastBreaker.add(command);
    return client.sendCommand(command) as Promise<unknown>;
  };
  const breaker = new CircuitBreaker({
    name: 'redis',
    probe: () => sendPast(new Command('ping', [])),
    timers,
  });
  /*
   * The commands of one turn of the event loop (the admissions of every request that arrived in
   * it) go out in one write instead of a system call each: the socket is corked at the turn's first
   * command and uncorked when the turn's I/O has been handled (setImmediate). ioredis's
   * auto-pipelining did this before, at a cost measured in docs/performance.md: with it, each
   * young-generation collection of the API promoted about four times as much and took about three
   * times as long, and a cached read cost about a fifth more CPU. Commands are written in the
   * order they were sent.
   */
  let corked: WritableSocket | null = null;
  const uncork = (): void => {
    const socket = corked;
    corked = null;
    socket?.uncork();
  };
  const onReply = (): void => breaker.success();
  const onFailure = (err: unknown): void => {
    if (isRedisTimeout(err)) breaker.timeout();
    // An answer, even an error of Redis's own (OOM, READONLY), shows it is not hung.
    else if (err instanceof Error && !/Connection is closed|Stream isn't writeable/.test(err.message))
      breaker.success();
  };
  client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    const [command] = args;
    // Only a ready connection is short-circuited: the handshake of a reconnection must go through.
    if (breaker.isOpen && client.status === 'ready' && !pastBreaker.has(command)) {
      command.reject(new CircuitOpenError('redis'));
      return command.promise;
    }
    commands += 1;
    const socket = (client as unknown as { stream?: WritableSocket }).stream;
    if (corked === null && client.status === 'ready' && socket) {
      corked = socket;
      socket.cork();
      setImmediate(uncork);
    }
    const sent = send(...args) as Promise<unknown>;
    if (!pastBreaker.has(command)) sent.then(onReply, onFailure);
    return sent;
  }) as Redis['sendCommand'];
  // Without a listener ioredis prints every reconnect failure to stderr; route them to the caller's log.
  client.on('error', (err: unknown) => report('connection', err));

  let closed = false;
  let settled = false;
  let firstAttempt: Promise<void> | undefined;

  /** Starts the first connection attempt (once) and resolves when it is ready, failed or closed. */
  function startFirstAttempt(): Promise<void> {
    // Another user of the client (the cache versions kept in Redis) may have connected it first.
    if (!firstAttempt && client.status === 'ready') {
      settled = true;
      firstAttempt = Promise.resolve();
    }
    firstAttempt ??= new Promise<void>((resolve) => {
      const done = (): void => {
        settled = true;
        client.off('ready', done);
        client.off('error', done);
        client.off('end', done);
        resolve();
      };
      client.once('ready', done);
      client.once('error', done);
      client.once('end', done);
      // A failure also arrives as an 'error' event (reported above); ioredis then keeps reconnecting.
      // A connection already being made (by another user of the client) ends in the same events.
      if (client.status === 'wait') client.connect().catch(() => undefined);
    });
    return firstAttempt;
  }

  /**
   * Requests arriving while the first connection is being made would otherwise fail open for no
   * reason (the offline queue is off). Each waits for that attempt, at most INITIAL_CONNECT_WAIT_MS
   * from its own arrival; once it has settled nobody waits, so later outages fail immediately
   * instead of adding latency.
   */
  function whenSettled(): Promise<void> {
    if (settled || closed) return Promise.resolve();
    const attempt = startFirstAttempt();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, INITIAL_CONNECT_WAIT_MS);
      // Do not keep the process alive just for this wait.
      timer.unref();
      void attempt.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  return {
    client,
    whenSettled,
    commandCount: () => commands,
    breaker,
    sendPastBreaker: (name, args) => sendPast(new Command(name, args)),
    async close() {
      if (closed) return;
      closed = true;
      breaker.stop();
      await closeClient(client);
    },
  };
}

/** QUIT lets in-flight replies (e.g. slot releases) finish; fall back to a hard disconnect if Redis is away. */
async function closeClient(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // Fall through to disconnect.
    }
  }
  client.disconnect();
}
