// A TCP proxy in front of a real server (PostgreSQL, Redis) that can be told to hang: while hung
// it reads nothing from either side, so requests and answers wait in the network buffers, the way
// a partition or a stalled server looks from the client (connections stay open, nothing answers).
// When it resumes, everything held back is delivered, as TCP would after the partition heals.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  setHung(on: boolean): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let hung = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
      if (hung) s.pause();
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setHung: (on) => {
      hung = on;
      for (const s of sockets) {
        if (on) s.pause();
        else s.resume();
      }
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
