// The Redis that tests use (TEST_REDIS_URL, else REDIS_URL, else the local default) and a
// reachability check that does not go through the code under test.
import { connect } from 'node:net';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Plain TCP PING. A server requiring AUTH answers -NOAUTH, which still proves it is reachable. */
export function redisReachable(url: string = TEST_REDIS_URL, timeoutMs = 500): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(/^[+-]/.test(data.toString())));
  });
}

/** Why a Redis suite is skipped here, or undefined when Redis answers (REQUIRE_REDIS=1 makes it a failure). */
export async function redisSkipReason(url: string = TEST_REDIS_URL): Promise<string | undefined> {
  if (await redisReachable(url)) return undefined;
  const reason = `Redis not reachable at ${url}; start Redis or set TEST_REDIS_URL (REQUIRE_REDIS=1 turns this into a failure)`;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but ${reason}`);
  return reason;
}
