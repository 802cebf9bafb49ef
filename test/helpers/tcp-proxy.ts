// A TCP fault proxy in front of a real server (PostgreSQL, Redis), with four modes:
// - pass:  bytes go through as they come;
// - hang:  it reads nothing from either side, so requests and answers wait in the network
//          buffers, the way a partition or a stalled server looks from the client (connections
//          stay open, nothing answers); back to pass, everything held back is delivered, as TCP
//          would after the partition heals;
// - delay: every chunk is forwarded `delayMs` late, in order (a slow link or a slow server);
// - reset: every open connection is reset, and new ones are reset as they arrive, until the mode
//          changes (a server or a middlebox dropping connections).
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'pass' | 'hang' | 'reset' | { delayMs: number };

export interface TcpProxy {
  port: number;
  setMode(mode: ProxyMode): void;
  /** setMode('hang') or setMode('pass'). */
  setHung(on: boolean): void;
  /** Connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  let accepted = 0;
  const sockets = new Set<Socket>();

  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (typeof mode === 'object') {
        const delayMs = mode.delayMs;
        setTimeout(() => {
          if (!to.destroyed) to.write(chunk);
        }, delayMs);
      } else if (!to.destroyed) {
        to.write(chunk);
      }
    });
  };

  const server: Server = createServer((client) => {
    accepted += 1;
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
      if (mode === 'hang') s.pause();
    }
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const setMode = (next: ProxyMode) => {
    mode = next;
    for (const s of [...sockets]) {
      if (next === 'reset') s.resetAndDestroy();
      else if (next === 'hang') s.pause();
      else s.resume();
    }
  };
  return {
    port: (server.address() as AddressInfo).port,
    setMode,
    setHung: (on) => setMode(on ? 'hang' : 'pass'),
    accepted: () => accepted,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
