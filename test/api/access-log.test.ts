// The access line's client address and user agent. The address comes from X-Forwarded-For only
// when the TCP peer is a proxy TRUST_PROXY trusts (a hop count or the balancers' addresses);
// otherwise it is the peer itself, so a client cannot choose the address it is logged under.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

interface AccessLine {
  reqId: string;
  msg: string;
  client_ip: string | null;
  user_agent: string | null;
  [field: string]: unknown;
}

/** Sends GET /v1/me from `peer` with these headers; returns the request's one access line. */
async function accessLine(t: TestApp, key: string, peer: string, headers: Record<string, string>): Promise<AccessLine> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/v1/me',
    remoteAddress: peer,
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
  assert.equal(res.statusCode, 200, res.body);
  const lines = t.logs
    .flatMap((chunk) => chunk.split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AccessLine);
  const mine = lines.filter((l) => l.reqId === res.headers['x-request-id']);
  assert.equal(mine.length, 1);
  assert.equal(mine[0]!.msg, 'request completed');
  return mine[0]!;
}

const FORWARDED = { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' };

describeEachEngine('access log: client address and user agent', (target) => {
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string>) => {
    const t = await startTestApp(target, env);
    apps.push(t);
    return { t, key: (await t.tenant()).key };
  };
  let untrusting: { t: TestApp; key: string };
  before(async () => {
    untrusting = await start({});
  });
  after(async () => {
    for (const t of apps) await t.close();
  });

  it('without TRUST_PROXY the address is the TCP peer, whatever X-Forwarded-For says; every other field is kept', async () => {
    const line = await accessLine(untrusting.t, untrusting.key, '10.0.0.5', {
      ...FORWARDED,
      'user-agent': 'sync-bot/2.1 (+https://example.com)',
    });
    assert.equal(line.client_ip, '10.0.0.5');
    assert.equal(line.user_agent, 'sync-bot/2.1 (+https://example.com)');
    assert.deepEqual(
      Object.keys(line)
        .filter((k) => !['level', 'time', 'pid', 'hostname'].includes(k))
        .sort(),
      ['client_ip', 'duration_ms', 'key_id', 'method', 'msg', 'reqId', 'route', 'status', 'store', 'user_agent'],
    );
    assert.deepEqual([line.method, line.route, line.status], ['GET', '/v1/me', 200]);
    assert.equal(line.key_id, untrusting.key.slice(9, 17));
  });

  it('no user agent is null; a very long one is cut to 256 characters', async () => {
    // (The test client sends a user agent of its own unless given one: an empty header stands for none.)
    assert.equal((await accessLine(untrusting.t, untrusting.key, '10.0.0.5', { 'user-agent': '' })).user_agent, null);
    const long = (await accessLine(untrusting.t, untrusting.key, '10.0.0.5', { 'user-agent': 'x'.repeat(5000) }))
      .user_agent!;
    assert.equal(long, `${'x'.repeat(256)}…`);
  });

  it('TRUST_PROXY=1: the address the one balancer in front saw (the last X-Forwarded-For entry)', async () => {
    const { t, key } = await start({ TRUST_PROXY: '1' });
    assert.equal((await accessLine(t, key, '10.0.0.5', FORWARDED)).client_ip, '203.0.113.9');
    assert.equal((await accessLine(t, key, '10.0.0.5', {})).client_ip, '10.0.0.5');
  });

  it('TRUST_PROXY as networks: X-Forwarded-For is believed from a balancer in them, and not from anyone else', async () => {
    const { t, key } = await start({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.10' });
    assert.equal((await accessLine(t, key, '10.0.0.5', FORWARDED)).client_ip, '203.0.113.9');
    assert.equal((await accessLine(t, key, '192.0.2.10', FORWARDED)).client_ip, '203.0.113.9');
    assert.equal((await accessLine(t, key, '192.0.2.77', FORWARDED)).client_ip, '192.0.2.77');
  });
});

it('TRUST_PROXY: a bad value stops the start with a clear problem', () => {
  for (const [value, problem] of [
    ['0', /TRUST_PROXY as a hop count must be 1 to 10 \(got "0"\)/],
    [
      'true',
      /TRUST_PROXY must be a hop count or a comma-separated list of IP addresses or CIDR networks \(not "true"\)/,
    ],
    ['10.0.0.0/8,,lb.internal', /\(not "", "lb\.internal"\)/],
  ] as const) {
    assert.throws(
      () => loadConfig({ TRUST_PROXY: value }),
      (err: unknown) => err instanceof ConfigError && problem.test(err.message),
      value,
    );
  }
  assert.deepEqual(loadConfig({ TRUST_PROXY: ' 2 ' }).ops.trustProxy, 2);
  assert.deepEqual(loadConfig({}).ops.trustProxy, false);
});
