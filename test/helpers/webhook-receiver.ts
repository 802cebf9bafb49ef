// Real HTTP servers standing in for an integrator's webhook receiver: one records every request
// (headers and the raw body) and answers with the statuses it is told, in order; the other reads
// each request and never answers (until told to), as a receiver that hangs.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  path: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses for the next requests, in order; 200 once they run out. */
  answer(...statuses: number[]): void;
  /** The body of every later answer (default `ok`). */
  respondWith(body: string): void;
  /** Received events of one type. */
  ofType(type: string): Received[];
  clear(): void;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const received: Received[] = [];
  const queued: number[] = [];
  let answerBody = 'ok';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      received.push({ headers: req.headers, body, json, path: req.url ?? '' });
      res.statusCode = queued.shift() ?? 200;
      res.end(answerBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer: (...statuses) => queued.push(...statuses),
    respondWith: (body) => (answerBody = body),
    ofType: (type) => received.filter((r) => r.json?.type === type),
    clear: () => received.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A receiver that reads each request and never answers (until told to), counting arrivals. */
export async function startHangingReceiver() {
  let answering = false;
  const arrived: string[] = [];
  const waiting: Array<() => void> = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      arrived.push(req.url ?? '');
      for (const w of waiting.splice(0)) w();
      if (answering) res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    arrived,
    answer: () => (answering = true),
    /** Resolves once `n` requests have arrived in all. */
    until: (n: number) =>
      new Promise<void>((resolve) =>
        arrived.length >= n
          ? resolve()
          : waiting.push(function check() {
              if (arrived.length >= n) resolve();
              else waiting.push(check);
            }),
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
