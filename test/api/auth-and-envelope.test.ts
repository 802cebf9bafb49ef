import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertCommonHeaders, assertError } from '../helpers/assertions.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('authentication and the error envelope', (suite) => {
  const me = (authorization?: string, extra: Record<string, string> = {}) =>
    suite.t.request({
      method: 'GET',
      url: '/v1/me',
      headers: { ...(authorization === undefined ? {} : { authorization }), ...extra },
    });

  it('accepts Bearer in any case followed by exactly one space and the key', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const res = await me(`${scheme} ${suite.key}`);
      assert.equal(res.statusCode, 200, scheme);
      assertCommonHeaders(res);
    }
  });

  it('answers 401 unauthorized with no details for every malformed or wrong credential', async () => {
    const keyId = suite.key.slice('svc_live_'.length, 'svc_live_'.length + 8);
    const cases: Array<[string, string | undefined]> = [
      ['missing header', undefined],
      ['empty header', ''],
      ['scheme only', 'Bearer'],
      ['two spaces', `Bearer  ${suite.key}`],
      ['tab instead of space', `Bearer\t${suite.key}`],
      ['trailing garbage', `Bearer ${suite.key} x`],
      ['other scheme', `Basic ${Buffer.from(`${suite.key}:`).toString('base64')}`],
      ['no scheme', suite.key],
      ['wrong prefix', `Bearer svc_test_${suite.key.slice(9)}`],
      ['short secret', `Bearer ${suite.key.slice(0, -1)}`],
      ['wrong secret', `Bearer svc_live_${keyId}_${'A'.repeat(32)}`],
      ['unknown key id', `Bearer svc_live_zzzzzzzz_${suite.key.slice(-32)}`],
      ['upper-case key id', `Bearer svc_live_${keyId.toUpperCase()}_${suite.key.slice(-32)}`],
    ];
    for (const [name, header] of cases) {
      const res = await me(header);
      assertError(res, 'unauthorized');
      assert.equal(res.headers['x-ratelimit-limit'], undefined, `${name}: no rate headers before authentication`);
    }
  });

  it('does not accept a key in the query string or the body', async () => {
    assertError(await suite.t.request({ method: 'GET', url: `/v1/me?api_key=${suite.key}` }), 'unauthorized');
    assertError(await suite.t.request({ method: 'GET', url: `/v1/me?access_token=${suite.key}` }), 'unauthorized');
  });

  it('refuses an expired key exactly like a wrong one, and honours a no-expiry key', async () => {
    const store = await suite.t.createStore();
    const shortLived = await suite.t.issueKey(store, ['read_blog'], { expiresInDays: 1 });
    const forever = await suite.t.issueKey(store, ['read_blog'], { expiresInDays: null });
    assert.equal((await me(`Bearer ${shortLived}`)).statusCode, 200);
    suite.t.clock.advance(24 * 3600 * 1000);
    assertError(await me(`Bearer ${shortLived}`), 'unauthorized');
    const res = await me(`Bearer ${forever}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().key_expires_at, null);
    suite.t.clock.set('2026-09-15T02:00:00.000Z');
  });

  it('refuses a revoked key on its very next request; other keys of the application keep working', async () => {
    const store = await suite.t.createStore();
    const a = await suite.t.issueKey(store, ['read_blog']);
    const b = await suite.t.issueKey(store, ['read_blog']);
    assert.equal((await me(`Bearer ${a}`)).statusCode, 200);
    assert.equal(await suite.t.ctx.keys.revoke(a.slice(9, 17)), true);
    assertError(await me(`Bearer ${a}`), 'unauthorized');
    assert.equal((await me(`Bearer ${b}`)).statusCode, 200);
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const ok = await me(`Bearer ${suite.key}`, { 'x-request-id': 'trace.ABC_123-x' });
    assert.equal(ok.headers['x-request-id'], 'trace.ABC_123-x');
    for (const bad of ['a'.repeat(65), 'has space', 'semi;colon', 'ünïcode']) {
      const res = await me(undefined, { 'x-request-id': encodeURI(bad) === bad ? bad : 'x y' });
      const err = assertError(res, 'unauthorized');
      assert.notEqual(err.request_id, bad);
      assert.match(err.request_id, /^req_[A-Za-z0-9_-]+$/);
    }
    const err = assertError(await me(undefined, { 'x-request-id': 'my-trace-1' }), 'unauthorized');
    assert.equal(err.request_id, 'my-trace-1');
  });

  it('answers unknown routes and methods with 404 not_found in the envelope', async () => {
    assertError(await suite.t.request({ method: 'GET', url: '/v1/nothing-here', key: suite.key }), 'not_found');
    assertError(await suite.t.request({ method: 'PUT', url: '/v1/me', key: suite.key }), 'not_found');
    assertError(await suite.t.request({ method: 'GET', url: '/', key: suite.key }), 'not_found');
  });

  it('names an unknown query parameter with 422 validation_failed', async () => {
    const res = await suite.t.request({ method: 'GET', url: '/v1/audit/events?colour=red', key: suite.key });
    assertError(res, 'validation_failed', [{ field: 'colour', issue: 'is not a recognised field' }]);
  });

  it('never writes a secret to the log, and logs the key_id', async () => {
    const secret = suite.key.slice(-32);
    const ok = await me(`Bearer ${suite.key}`);
    await me(`Bearer ${suite.key.slice(0, -4)}WXYZ`);
    await suite.t.request({ method: 'GET', url: `/v1/me?key=${suite.key}` });
    await suite.t.request({ method: 'GET', url: `/v1/audit/events?cursor=${suite.key}`, key: suite.key });
    const all = suite.t.logs.join('');
    assert.ok(all.length > 0, 'requests were logged');
    assert.ok(!all.includes(secret), 'secret found in logs');
    assert.ok(!all.includes(`${secret.slice(0, 28)}WXYZ`), 'wrong secret found in logs');
    assert.ok(all.includes(suite.key.slice(9, 17)), 'key_id is logged');
    // The request's own log lines carry its id, key and store.
    const lines = suite.t.logs
      .flatMap((chunk) => chunk.split('\n'))
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const completed = lines.find((l) => l.reqId === ok.headers['x-request-id'] && l.msg === 'request completed');
    assert.ok(completed, 'the request completion is logged with its request id');
    assert.equal(completed.key_id, suite.key.slice(9, 17));
    assert.equal(typeof completed.store, 'string');
    // One access line per request, with the route pattern rather than the URL.
    assert.deepEqual(lines.filter((l) => l.reqId === ok.headers['x-request-id']).length, 1);
    assert.equal(completed.level, 30);
    assert.deepEqual([completed.method, completed.route, completed.status], ['GET', '/v1/me', 200]);
    assert.equal(typeof completed.duration_ms, 'number');
  });
});
