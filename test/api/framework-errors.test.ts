// Requests that never reach a route, over a real socket: a path the router cannot decode, an
// over-long path parameter, and bytes Node's HTTP parser refuses. Each answer is the API's
// envelope with a request id, and the connection is closed cleanly (FIN after the answer).
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { assertError } from '../helpers/assertions.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

interface RawExchange {
  /** Every answer read from the connection, in order, shaped for assertError. */
  responses: LightMyRequestResponse[];
  /** The server ended the connection with a FIN (not a reset, not left open). */
  endedCleanly: boolean;
}

function parseResponses(data: Buffer): LightMyRequestResponse[] {
  const out: LightMyRequestResponse[] = [];
  let rest = data.toString('utf8');
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    assert.ok(headEnd > 0, `a response head in ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines)
      headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    const bodyBytes = Buffer.from(rest.slice(headEnd + 4), 'utf8');
    const length = Number(headers['content-length']);
    const body = bodyBytes.subarray(0, length).toString('utf8');
    rest = bodyBytes.subarray(length).toString('utf8');
    out.push({
      statusCode: Number(statusLine.split(' ')[1]),
      headers,
      body,
      json: () => JSON.parse(body),
    } as unknown as LightMyRequestResponse);
  }
  return out;
}

describeTenantApp('errors before any route, over a real socket', (suite) => {
  let port: number;
  before(async () => {
    await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (suite.t.app.server.address() as AddressInfo).port;
  });

  /** Writes raw bytes and reads until the server closes the connection. */
  function exchange(...writes: Array<string | Buffer>): Promise<RawExchange> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(port, '127.0.0.1', () => {
        for (const w of writes) socket.write(w);
      });
      socket.on('data', (d) => chunks.push(d));
      socket.on('end', () => {
        socket.end();
        resolve({ responses: parseResponses(Buffer.concat(chunks)), endedCleanly: true });
      });
      socket.on('error', (err) => reject(err));
    });
  }

  const get = (path: string, extraHeaders = '') =>
    `GET ${path} HTTP/1.1\r\nHost: blog.test\r\nAuthorization: Bearer ${suite.key}\r\n${extraHeaders}\r\n`;

  function assertOneAnswer(ex: RawExchange) {
    assert.ok(ex.endedCleanly);
    assert.equal(ex.responses.length, 1);
    return ex.responses[0];
  }

  function assertLogged(requestId: string) {
    const lines = suite.t.logs
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    assert.ok(
      lines.some((l) => l.reqId === requestId),
      `a log line carries ${requestId}`,
    );
  }

  it('answers a path that cannot be decoded with 404 not_found', async () => {
    for (const path of [
      '/v1/blog/posts/%%',
      '/v1/blog/posts/%E0%A4%A',
      '/media/shop/%zz.jpg',
      '/s/shop/blog/posts/%',
    ]) {
      const res = assertOneAnswer(await exchange(get(path, 'Connection: close\r\n')));
      const err = assertError(res, 'not_found');
      assertLogged(err.request_id);
    }
  });

  it('writes the message in the language Accept-Language asks for, except when the parser refused the bytes', async () => {
    const routed = assertOneAnswer(
      await exchange(get('/v1/blog/posts/%%', 'Accept-Language: en\r\nConnection: close\r\n')),
    );
    assertError(routed, 'not_found', [], { language: 'en' });
    // The parser stopped inside the headers: none of them, Accept-Language included, is trusted.
    const refused = assertOneAnswer(
      await exchange(get('/v1/me', `Accept-Language: en\r\nX-Padding: ${'a'.repeat(20_000)}\r\n`)),
    );
    assertError(refused, 'validation_failed', [{ field: 'headers', issue: /at most 16384 bytes/ }], {
      language: 'zh-TW',
    });
  });

  it('answers a path parameter over 200 characters with 404 not_found', async () => {
    const res = assertOneAnswer(await exchange(get(`/v1/blog/posts/${'1'.repeat(201)}`, 'Connection: close\r\n')));
    assertError(res, 'not_found');
  });

  it('answers headers over the size limit with 422 naming headers, then closes', async () => {
    for (const size of [20_000, 200_000]) {
      const res = assertOneAnswer(await exchange(get('/v1/me', `X-Padding: ${'a'.repeat(size)}\r\n`)));
      const err = assertError(res, 'validation_failed', [
        { field: 'headers', issue: 'the request line and headers must be at most 16384 bytes in all' },
      ]);
      assert.equal(res.headers.connection, 'close');
      assertLogged(err.request_id);
    }
  });

  it('answers a control byte in a header with 422 naming that header, then closes', async () => {
    const res = assertOneAnswer(await exchange(get('/v1/me', 'X-Trace: a\x01b\r\n')));
    assertError(res, 'validation_failed', [
      { field: 'X-Trace', issue: 'contains a character not allowed in a header' },
    ]);
    assert.equal(res.headers.connection, 'close');
    // An answer to HEAD has the same head and no body.
    const head = await exchange(`HEAD /v1/me HTTP/1.1\r\nHost: blog.test\r\nX-Trace: a\x01b\r\n\r\n`);
    assert.equal(head.responses[0].statusCode, 422);
    assert.equal(head.responses[0].headers.connection, 'close');
    assert.equal(head.responses[0].body, '');
    const badName = assertOneAnswer(await exchange(get('/v1/me', 'X Trace: a\r\n')));
    assertError(badName, 'validation_failed', [{ field: 'headers', issue: 'are not well-formed HTTP headers' }]);
  });

  it('answers a malformed Content-Length with 422 naming it', async () => {
    const res = assertOneAnswer(
      await exchange(
        `POST /v1/blog/posts HTTP/1.1\r\nHost: blog.test\r\nContent-Type: application/json\r\nContent-Length: 1x\r\n\r\n{}`,
      ),
    );
    assertError(res, 'validation_failed', [
      { field: 'Content-Length', issue: 'must be one decimal number, and not sent with Transfer-Encoding' },
    ]);
  });

  it('answers a malformed chunked body with 422 body, once, and stores nothing', async () => {
    const head = `POST /v1/blog/posts HTTP/1.1\r\nHost: blog.test\r\nAuthorization: Bearer ${suite.key}\r\nIdempotency-Key: chunked-1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const res = assertOneAnswer(await exchange(head, '5\r\n{"tit\r\nzz\r\n'));
    assertError(res, 'validation_failed', [{ field: 'body', issue: 'is not well-formed chunked encoding' }]);
    const list = await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key: suite.key });
    assert.deepEqual(list.json().data, []);
  });

  it('answers a request line that is not HTTP with 404 not_found', async () => {
    assertError(assertOneAnswer(await exchange('GARBAGE\r\n\r\n')), 'not_found');
    assertError(assertOneAnswer(await exchange('GET /v1/me HTTP/9.9\r\n\r\n')), 'not_found');
  });

  it('answers a request without a Host header, or with an Expect it does not meet, as usual', async () => {
    const noHost = assertOneAnswer(
      await exchange(`GET /v1/me HTTP/1.1\r\nAuthorization: Bearer ${suite.key}\r\nConnection: close\r\n\r\n`),
    );
    assert.equal(noHost.statusCode, 200, noHost.body);
    const unauthorized = assertOneAnswer(await exchange('GET /v1/me HTTP/1.1\r\nConnection: close\r\n\r\n'));
    assertError(unauthorized, 'unauthorized');
    for (const expect of ['', 'something-else']) {
      const res = assertOneAnswer(await exchange(get('/v1/me', `Expect: ${expect}\r\nConnection: close\r\n`)));
      assert.equal(res.statusCode, 200, res.body);
    }
  });

  it('answers the good request of a kept-alive connection, then the bad one', async () => {
    const ex = await exchange(get('/v1/me'), get('/v1/me', 'X-Trace: \x7f\r\n'));
    assert.equal(ex.responses.length, 2);
    assert.equal(ex.responses[0].statusCode, 200, ex.responses[0].body);
    assertError(ex.responses[1], 'validation_failed', [
      { field: 'X-Trace', issue: 'contains a character not allowed in a header' },
    ]);
  });

  it('never logs the bytes the parser refused (credentials included)', () => {
    assert.ok(!suite.t.logs.join('').includes(suite.key.slice(-32)));
  });
});
