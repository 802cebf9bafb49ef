// An image upload sent in two halves over a raw socket, so that a test can do something (send a
// signal, use up a slot) while the request is in flight, then finish it and read the answer.
import { connect, type Socket } from 'node:net';
import { multipartBody, uniqueJpeg } from '../api/media-support.js';

export interface SlowUpload {
  /** Sends the second half and resolves with the raw HTTP answer once the server closes. */
  finish(): Promise<string>;
  closed: Promise<void>;
  /** What the server has answered so far. */
  answer(): string;
}

/**
 * Sends the headers and the first half of an upload to `port`, then waits for `inFlight` (the
 * caller's proof that the server has admitted the request) before returning.
 */
export async function startSlowUpload(
  port: number,
  key: string,
  inFlight: () => Promise<unknown>,
  image?: Buffer,
): Promise<SlowUpload> {
  const { payload, contentType } = multipartBody([
    { name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: image ?? (await uniqueJpeg()) },
  ]);
  const socket: Socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const half = Math.floor(payload.length / 2);
  socket.write(
    `POST /v1/media/images HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
  );
  socket.write(payload.subarray(0, half));
  await inFlight();
  return {
    async finish(): Promise<string> {
      // write, not end: a client that half-closes its side has its request dropped by Node.
      socket.write(payload.subarray(half));
      await closed;
      return answer;
    },
    closed,
    answer: () => answer,
  };
}

/** Resolves once the server's metrics show an admitted /v1 request not yet answered. */
export async function requestInFlight(baseUrl: string): Promise<void> {
  for (;;) {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const count = Number(/^http_requests_in_flight (\d+)/m.exec(text)?.[1] ?? 0);
    if (count >= 1) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
