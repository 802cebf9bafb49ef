// Input a caller controls that must not cross a boundary: page cursors stay with the store and
// key application they were issued to, and a key pasted into X-Request-Id is never echoed,
// logged or stored.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const CURSOR_REFUSED = [
  { field: 'cursor', issue: 'was not issued to this caller; omit it to start from the first page' },
];

describeTenantApp('cursors are bound to their store and key application', { tenant: false }, (suite) => {
  const get = (url: string, key: string) => suite.t.request({ method: 'GET', url, key });

  it('refuses another store’s post cursor, and another application’s, with 422 cursor', async () => {
    const a = await suite.t.tenant();
    const b = await suite.t.tenant();
    for (let i = 0; i < 3; i++) {
      await createPost(suite.t, a.key);
      await createPost(suite.t, b.key);
    }
    const sameAppOtherKey = await suite.t.issueKey(a.store, ['read_blog'], { application: 'test-app' });
    const otherApp = await suite.t.issueKey(a.store, ['read_blog'], { application: 'reporting' });

    const first = await get('/v1/blog/posts?limit=2', a.key);
    assert.equal(first.statusCode, 200, first.body);
    const cursor = first.json().meta.next_cursor as string;
    assert.equal(typeof cursor, 'string');
    const next = `/v1/blog/posts?limit=2&cursor=${encodeURIComponent(cursor)}`;

    assertError(await get(next, b.key), 'validation_failed', CURSOR_REFUSED);
    assertError(await get(next, otherApp), 'validation_failed', CURSOR_REFUSED);
    // Another key of the same application (a rotated key) continues where the first stopped.
    const continued = await get(next, sameAppOtherKey);
    assert.equal(continued.statusCode, 200, continued.body);
    assert.equal(continued.json().data.length, 1);
    assert.equal((await get(next, a.key)).json().data.length, 1);
  });

  it('does not hand one application a kept page whose cursor was issued to another', async () => {
    const { store, key } = await suite.t.tenant();
    for (let i = 0; i < 3; i++) await createPost(suite.t, key);
    const otherApp = await suite.t.issueKey(store, ['read_blog'], { application: 'reporting' });
    // Same query from two applications: each must receive a cursor it can use.
    const mine = (await get('/v1/blog/posts?limit=2', key)).json().meta.next_cursor as string;
    const theirs = (await get('/v1/blog/posts?limit=2', otherApp)).json().meta.next_cursor as string;
    assert.notEqual(mine, theirs);
    assert.equal((await get(`/v1/blog/posts?limit=2&cursor=${encodeURIComponent(theirs)}`, otherApp)).statusCode, 200);
    assertError(
      await get(`/v1/blog/posts?limit=2&cursor=${encodeURIComponent(theirs)}`, key),
      'validation_failed',
      CURSOR_REFUSED,
    );
  });

  it('refuses another store’s audit cursor, and another application’s, with 422 cursor', async () => {
    const a = await suite.t.tenant();
    const b = await suite.t.tenant();
    for (let i = 0; i < 3; i++) {
      await createPost(suite.t, a.key);
      await createPost(suite.t, b.key);
    }
    const otherApp = await suite.t.issueKey(a.store, ['read_audit'], { application: 'reporting' });
    const cursor = (await get('/v1/audit/events?limit=1', a.key)).json().meta.next_cursor as string;
    const next = `/v1/audit/events?limit=1&cursor=${encodeURIComponent(cursor)}`;
    assertError(await get(next, b.key), 'validation_failed', CURSOR_REFUSED);
    assertError(await get(next, otherApp), 'validation_failed', CURSOR_REFUSED);
    assert.equal((await get(next, a.key)).statusCode, 200);
  });
});

describeTenantApp('a key in X-Request-Id goes nowhere', { tenant: false }, (suite) => {
  it('replaces a key-shaped request id, and never logs or stores it', async () => {
    const { key } = await suite.t.tenant();
    const secret = key.slice(-32);
    const keyShaped = [
      key,
      key.slice('svc_live_'.length), // the key without its prefix
      `trace-${key}`,
      `SVC_LIVE_${key.slice('svc_live_'.length)}`,
      'svc_live_abcdefgh_ABCDEFGHIJKLMNOPQRSTUVWXYZ123456', // not a real key, still key-shaped
    ];
    const used: string[] = [];
    for (const sent of keyShaped) {
      const res = await suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key,
        headers: { 'x-request-id': sent, 'idempotency-key': `rid-${used.length}` },
        body: { title: `Request id ${used.length}`, body_html: `<p>${used.length}</p>` },
      });
      assert.equal(res.statusCode, 201, res.body);
      const id = String(res.headers['x-request-id']);
      assert.match(id, /^req_[A-Za-z0-9_-]+$/, `${sent} was replaced`);
      used.push(id);
      const err = assertError(
        await suite.t.request({ method: 'GET', url: '/v1/me', headers: { 'x-request-id': sent } }),
        'unauthorized',
      );
      assert.match(err.request_id, /^req_/);
    }
    // The audit events of those creates carry the generated ids.
    const events = (
      await suite.t.request({ method: 'GET', url: '/v1/audit/events?action=post.created&limit=50', key })
    ).json().data;
    assert.deepEqual(events.map((e: { request_id: string }) => e.request_id).reverse(), used);
    const logs = suite.t.logs.join('');
    assert.ok(!logs.includes(secret), 'the secret reached the log');
    assert.ok(!logs.includes('ABCDEFGHIJKLMNOPQRSTUVWXYZ123456'), 'a key-shaped id reached the log');
    assert.ok(
      used.every((id) => logs.includes(id)),
      'the generated ids are logged',
    );
    // A plain trace id is still echoed.
    const plain = await suite.t.request({
      method: 'GET',
      url: '/v1/me',
      key,
      headers: { 'x-request-id': 'trace_live-2026.09' },
    });
    assert.equal(plain.headers['x-request-id'], 'trace_live-2026.09');
  });
});
