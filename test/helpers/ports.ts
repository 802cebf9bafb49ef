// Loopback ports for tests that need an address before anything listens on it.
import { createServer } from 'node:net';

/**
 * A loopback port nobody listens on right now: connections to it are refused at once, and a
 * server may take it (e.g. an app that needs its own address for PUBLIC_BASE_URL before it starts).
 */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
