import { Redis } from 'ioredis';
import type { Reporter } from './backend-error.js';

/*
 * Client settings chosen so a limit decision never waits long on a sick Redis:
 * - enableOfflineQueue: false  -> commands issued while disconnected fail at once instead of queueing;
 * - commandTimeout             -> a connected but unresponsive server cannot stall a request;
 * - connectTimeout             -> a black-holed address is given up on quickly and retried;
 * - maxRetriesPerRequest: 1    -> a command caught by a dropped connection is not replayed for long.
 * Reconnection keeps going with ioredis' default backoff, so limits resume once Redis is back.
 */
const COMMAND_TIMEOUT_MS = 150;
const CONNECT_TIMEOUT_MS = 500;
/** Upper bound on how long the first requests after start-up wait for the initial connection. */
const INITIAL_CONNECT_WAIT_MS = 200;

export interface RedisConnection {
  readonly client: Redis;
  /** Resolves once the client is usable or the start-up attempt has settled either way (bounded wait). */
  whenSettled(): Promise<void>;
  close(): Promise<void>;
}

export function openRedisConnection(redisUrl: string, report: Reporter): RedisConnection {
  const client = new Redis(redisUrl, {
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  });
  // Without a listener ioredis prints every reconnect failure to stderr; route them to the caller's log.
  client.on('error', (err: unknown) => report('connection', err));

  const initialAttempt = settleInitialAttempt(client);
  let closed = false;

  return {
    client,
    whenSettled: () => initialAttempt,
    async close() {
      if (closed) return;
      closed = true;
      await closeClient(client);
    },
  };
}

/**
 * Requests arriving while the very first connection is still being made would otherwise fail open
 * for no reason (the offline queue is off). They wait for that first attempt only, never longer
 * than INITIAL_CONNECT_WAIT_MS; later outages fail immediately instead of adding latency.
 */
function settleInitialAttempt(client: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('error', done);
      client.off('end', done);
      resolve();
    };
    const timer = setTimeout(done, INITIAL_CONNECT_WAIT_MS);
    // Do not keep the process alive just for this wait.
    timer.unref();
    client.once('ready', done);
    client.once('error', done);
    client.once('end', done);
  });
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
