// A bare HTTP/1.1 client over a TCP socket: the fuzz suite sends bytes that fetch and inject()
// refuse to build (control bytes in headers, oversized headers, unparseable paths, bad framing),
// so the server's own HTTP parser is exercised as a real client would meet it.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The status line and headers as received, for failure messages. */
  head: string;
}

/**
 * The server closed the connection without sending a single byte, or reset it before its
 * answer was whole: what a client sees when it keeps sending a body the server no longer reads
 * (a refusal past the key's lingering allowance, docs/operations.md: "such a client may see a
 * reset instead of the answer").
 */
export interface NoAnswer {
  closedWithoutAnswer: true;
}

export interface RawRequest {
  method: string;
  /** The request target exactly as written on the request line. */
  target: string;
  /** Header lines in order, written as `name: value` without any escaping. */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** `HTTP/1.1` unless given. */
  version?: string;
}

export function encodeRequest(req: RawRequest): Buffer {
  const lines = [
    `${req.method} ${req.target} ${req.version ?? 'HTTP/1.1'}`,
    ...req.headers.map(([name, value]) => `${name}: ${value}`),
  ];
  // latin1 writes each code unit below 256 as that byte, so control bytes reach the wire as given.
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), req.body ?? Buffer.alloc(0)]);
}

/**
 * Sends one request and reads until the server closes the connection (callers send
 * `Connection: close`). Rejects when nothing ends the exchange within `timeoutMs`.
 */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 15_000): Promise<RawAnswer | NoAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no end of the exchange within ${timeoutMs} ms (received ${Buffer.concat(chunks).length} bytes)`),
      );
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we are still writing (it answered early); what it sent counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      if (all.length === 0) return resolve({ closedWithoutAnswer: true });
      try {
        const answer = parseAnswer(all);
        const declared = answer.headers['content-length'];
        const cutShort = declared !== undefined && answer.body.length < Number(declared);
        if (cutShort && /close/i.test(answer.headers.connection ?? '')) return resolve({ closedWithoutAnswer: true });
        resolve(answer);
      } catch (err) {
        reject(err);
      }
    });
    socket.write(bytes);
  });
}

export function parseAnswer(all: Buffer): RawAnswer {
  // Interim 1xx answers (100 Continue to an Expect) come before the real one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(all.subarray(0, 16).toString('latin1'))) {
    const interimEnd = all.indexOf('\r\n\r\n');
    if (interimEnd < 0) break;
    all = all.subarray(interimEnd + 4);
  }
  const end = all.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`incomplete answer: ${JSON.stringify(all.toString('latin1').slice(0, 300))}`);
  const head = all.subarray(0, end).toString('latin1');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!m) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = all.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(m[1]), headers, body, head };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('truncated chunked body');
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    if (size === 0) return Buffer.concat(out);
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
