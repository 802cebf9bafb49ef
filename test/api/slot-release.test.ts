// The in-flight slot of a request is freed however its connection ends, including when the
// server's HTTP parser closes the socket before the answer is written: bytes sent past a
// request's Content-Length parse as a broken second request on the same connection.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { assertCommonHeaders } from '../helpers/assertions.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

/** Writes raw bytes and resolves with everything received once the server closes. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1' });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(Buffer.from(bytes, 'latin1'));
  });
}

describeTenantApp('in-flight slots survive connections the parser closes', { tenant: false }, (suite) => {
  let port: number;
  before(async () => {
    await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (suite.t.app.server.address() as AddressInfo).port;
  });

  it('a body longer than its Content-Length does not keep the key’s only slot', async () => {
    const store = await suite.t.createStore();
    const key = await suite.t.issueKey(store, undefined, { concurrency: 1 });
    const body = '{"title":"Slot","body_html":"<p>x</p>"}';
    for (let i = 0; i < 3; i++) {
      await exchange(
        port,
        `POST /v1/blog/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nIdempotency-Key: slot-${i}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 1\r\n\r\n${body}`,
      );
    }
    // A request may still be finishing on the server after its socket closed: wait (a bounded
    // number of event-loop turns, not a time) until the traffic state shows the slot free.
    const keyId = key.slice('svc_live_'.length, 'svc_live_'.length + 8);
    let free = false;
    for (let turn = 0; turn < 500 && !free; turn++) {
      const release = await suite.t.ctx.traffic.acquireSlot(keyId, 1);
      if (release) {
        await release();
        free = true;
      } else await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(free, 'the slot was released');
    const res = await suite.t.request({ method: 'GET', url: '/v1/me', key });
    assert.equal(res.statusCode, 200, res.body);
    assertCommonHeaders(res);
  });
});
