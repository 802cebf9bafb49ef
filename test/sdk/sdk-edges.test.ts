// The SDK's edges against a real server on a loopback port, on both engines: events.follow()
// waits out real 429s (the server's clock moved by the injected sleep, not waited for) and ends
// only on the answers no wait can change; onResponse sees the answer's headers; a call a browser
// blocks the way CORS does says so; verifyWebhook without Web Crypto says so.
//
// The browser is emulated where Node has none: `location` gives the page's origin, and the
// fetch does the real request and then, like a browser, hides the answer behind a bare
// TypeError when no Access-Control-Allow-Origin admits the page (the service sends none).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import {
  BlogApiError,
  BlogClient,
  BlogConnectionError,
  verifyWebhook,
  WebhookVerificationError,
  type EventTypeFilter,
  type FeedEvent,
  type FollowRetryEvent,
  type ResponseEvent,
} from 'store-blog-sdk';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Runs `body` with `globalThis[name]` replaced, then puts the original back. */
async function withGlobal<T>(name: string, value: unknown, body: () => Promise<T>): Promise<T> {
  const original = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  try {
    return await body();
  } finally {
    if (original) Object.defineProperty(globalThis, name, original);
    else delete (globalThis as Record<string, unknown>)[name];
  }
}

/** The whole error as the SDK gives it: status, code, details, no retry, a request id, a message. */
function isServiceError(status: number, code: string, details: Array<{ field: string; issue: RegExp }>) {
  return (err: unknown) => {
    assert.ok(err instanceof BlogApiError, String(err));
    assert.equal(err.status, status);
    assert.equal(err.code, code);
    assert.equal(err.details.length, details.length);
    for (const [i, d] of details.entries()) {
      assert.equal(err.details[i]!.field, d.field);
      assert.match(err.details[i]!.issue, d.issue);
    }
    assert.equal(err.retryable, false);
    assert.equal(err.retryAfterSeconds, null);
    assert.equal(err.attempts, 1);
    assert.match(err.requestId!, /\S/);
    assert.ok(err.message.length > 0);
    return true;
  };
}

/** fetch as a browser page at `pageOrigin` runs it: the request goes out with Origin; a cross-origin answer without CORS is hidden. */
function browserFetch(pageOrigin: string): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), origin: pageOrigin },
    });
    const allowed = res.headers.get('access-control-allow-origin');
    if (new URL(String(input)).origin !== pageOrigin && allowed !== '*' && allowed !== pageOrigin)
      throw new TypeError('Failed to fetch');
    return res;
  };
}

describeEachEngine('store-blog-sdk: follow ends only when it must; headers, CORS, Web Crypto', (target) => {
  let t: TestApp;
  let baseUrl: string;

  before(async () => {
    t = await startTestApp(target);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t?.close();
  });

  it('follow waits out real 429s, Retry-After included, and yields every event once', async () => {
    const store = await t.createStore();
    const writer = new BlogClient({ baseUrl, apiKey: await t.issueKey(store) });
    for (let i = 0; i < 3; i++) await writer.posts.create({ title: `Limited ${i}`, body_html: `<p>${i}</p>` });
    const reader = new BlogClient({ baseUrl, apiKey: await t.issueKey(store, ['read_blog'], { readPerMinute: 2 }) });
    const stop = new AbortController();
    const retries: FollowRetryEvent[] = [];
    const seen: FeedEvent[] = [];
    for await (const event of reader.events.follow({
      limit: 1,
      signal: stop.signal,
      retry: { random: () => 0 },
      onRetry: (e) => void retries.push(e),
      // Each wait moves the server's clock as far instead of waiting.
      sleep: async (ms) => void t.clock.advance(ms),
    })) {
      seen.push(event);
      if (seen.length === 3) stop.abort();
    }
    assert.deepEqual(
      seen.map((e) => e.sequence),
      [1, 2, 3],
    );
    assert.ok(retries.length >= 1);
    for (const r of retries) {
      assert.ok(r.error instanceof BlogApiError);
      assert.equal(r.error.status, 429);
      assert.equal(r.error.code, 'rate_limited');
      assert.equal(r.error.attempts, 1, 'follow sends each try once: its own back-off retries');
      const retryAfter = r.error.retryAfterSeconds!;
      assert.ok(retryAfter >= 1 && retryAfter <= 60);
      assert.equal(r.delayMs, retryAfter * 1000, 'the jitter drew 0, Retry-After is waited in full');
    }
  });

  it('follow ends on 401, 403 and 422 with the service’s error; an abort ends it quietly', async () => {
    const { store } = await t.tenant();
    const follow = async (apiKey: string, types?: EventTypeFilter[]) => {
      const sdk = new BlogClient({ baseUrl, apiKey });
      const retries: FollowRetryEvent[] = [];
      const sleep = async () => assert.fail('no wait: it ends at once');
      for await (const _ of sdk.events.follow({ ...(types ? { types } : {}), sleep, onRetry: (e) => retries.push(e) }))
        assert.fail('no event');
      return retries;
    };
    await assert.rejects(
      follow('svc_live_abcdefgh_0000000000000000000000000000'),
      isServiceError(401, 'unauthorized', []),
    );
    await assert.rejects(
      follow(await t.issueKey(store, ['write_media'])),
      isServiceError(403, 'insufficient_scope', [{ field: 'scope', issue: /^required: read_blog$/ }]),
    );
    await assert.rejects(
      follow(await t.issueKey(store), ['posts.*' as EventTypeFilter]),
      isServiceError(422, 'validation_failed', [{ field: 'types[0]', issue: /^"posts\.\*" is not an event type/ }]),
    );

    // Aborted in the middle of a request: no error, the loop just ends.
    const sdk = new BlogClient({ baseUrl, apiKey: await t.issueKey(store) });
    const stop = new AbortController();
    stop.abort(new Error('stopped by the caller'));
    const seen = [];
    for await (const event of sdk.events.follow({ signal: stop.signal })) seen.push(event);
    assert.deepEqual(seen, []);
  });

  it('onResponse is given the answer’s headers, X-RateLimit-* included, on a success and on an error', async () => {
    const { key } = await t.tenant();
    const responses: ResponseEvent[] = [];
    const sdk = new BlogClient({ baseUrl, apiKey: key, onResponse: (e) => void responses.push(e) });
    await sdk.me();
    await assert.rejects(sdk.posts.get(999_999), (err: unknown) => err instanceof BlogApiError && err.status === 404);
    assert.deepEqual(
      responses.map((r) => [r.status, r.headers?.get('x-request-id') === r.requestId]),
      [
        [200, true],
        [404, true],
      ],
    );
    for (const r of responses) {
      assert.match(r.headers!.get('x-ratelimit-limit')!, /^\d+$/);
      assert.match(r.headers!.get('x-ratelimit-remaining')!, /^\d+$/);
      assert.match(r.headers!.get('x-ratelimit-reset')!, /^\d+$/);
    }
  });

  it('a call blocked as CORS blocks it names CORS and both origins, and is not retried; same-origin failures are', async () => {
    const { key } = await t.tenant();
    const sleeps: number[] = [];
    const sdk = new BlogClient({
      baseUrl,
      apiKey: key,
      fetch: browserFetch('https://shop.example'),
      retry: { sleep: async (ms) => void sleeps.push(ms) },
    });
    await withGlobal('location', { origin: 'https://shop.example' }, () =>
      assert.rejects(sdk.me(), (err: unknown) => {
        assert.ok(err instanceof BlogConnectionError);
        assert.equal(err.code, 'network_error');
        assert.equal(err.corsSuspected, true);
        assert.equal(err.attempts, 1);
        assert.equal(err.method, 'GET');
        assert.equal(err.path, '/v1/me');
        assert.equal(
          err.message,
          'GET /v1/me: the browser blocked the call or could not send it (Failed to fetch). From a page at ' +
            `https://shop.example to ${baseUrl} this is most often CORS: the service must allow the origin ` +
            "https://shop.example (the browser's console names the reason); otherwise the network is down, after 1 attempt",
        );
        assert.ok(err.cause instanceof TypeError);
        return true;
      }),
    );
    assert.equal(sleeps.length, 0, 'not retried');

    // A page on the service's own origin: a TypeError is a network failure, retried as always.
    const failing: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const sameOrigin = new BlogClient({
      baseUrl,
      apiKey: key,
      fetch: failing,
      maxRetries: 2,
      retry: { sleep: async (ms) => void sleeps.push(ms) },
    });
    await withGlobal('location', { origin: baseUrl }, () =>
      assert.rejects(sameOrigin.me(), (err: unknown) => {
        assert.ok(err instanceof BlogConnectionError);
        assert.equal(err.corsSuspected, false);
        assert.equal(err.attempts, 3);
        assert.equal(err.message, 'GET /v1/me: the connection failed (Failed to fetch), after 3 attempts');
        return true;
      }),
    );
    assert.equal(sleeps.length, 2);
  });

  it('verifyWebhook without Web Crypto (a page on a non-secure origin) throws an error that says so', async () => {
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1790000000', 'webhook-signature': 'v1,AAAA' };
    const insecure = { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) };
    await withGlobal('crypto', insecure, () =>
      assert.rejects(verifyWebhook('{}', headers, 'whsec_AAAA', { now: 1_790_000_000_000 }), (err: unknown) => {
        assert.ok(err instanceof Error && !(err instanceof WebhookVerificationError));
        assert.equal(
          err.message,
          'verifyWebhook needs Web Crypto (crypto.subtle), which this runtime does not offer: browsers give it only to ' +
            'secure origins (https, or http://localhost). In Node, verifyWebhookSync from store-blog-sdk/node needs none.',
        );
        return true;
      }),
    );
  });
});
