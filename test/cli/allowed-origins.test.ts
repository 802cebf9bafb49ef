// `store update --allowed-origins` (docs/content-api.md, "CORS"): set, shown by `store show`,
// cleared with `none`, bad origins refused; a running server follows the change, and a
// `read_published` key is issued like any other.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('operator CLI: --allowed-origins and read_published keys', { tenant: false }, (suite) => {
  const cli = (...args: string[]) => runCli({ DATABASE_URL: suite.t.config.database.url }, ...args);
  const corsOf = async (key: string, origin: string) => {
    // Settings reach a running server within seconds (docs/operations.md); the clock is moved past that.
    suite.t.clock.advance(10_000);
    const res = await suite.t.request({ method: 'GET', url: '/v1/content/posts', key, headers: { origin } });
    assert.equal(res.statusCode, 200, res.body);
    return res.headers['access-control-allow-origin'];
  };

  it('sets, shows and clears the allowed origins, and the server answers CORS by them', async () => {
    const handle = `cors-${suite.target.name}`;
    const created = await cli('store', 'create', '--handle', handle, '--name', 'CORS Shop');
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual(created.json.allowed_origins, []);
    const issued = await cli('key', 'issue', '--store', handle, '--app', 'storefront', '--scopes', 'read_published');
    assert.equal(issued.code, 0, issued.stderr);
    assert.deepEqual(issued.json.scopes, ['read_published']);
    const key = issued.json.key as string;
    assert.equal(await corsOf(key, 'https://a.example'), undefined);

    const updated = await cli(
      'store',
      'update',
      handle,
      '--allowed-origins',
      'https://A.example, https://b.example:8443/,http://localhost:3000,https://a.example',
    );
    assert.equal(updated.code, 0, updated.stderr);
    const origins = ['https://a.example', 'https://b.example:8443', 'http://localhost:3000'];
    assert.deepEqual(updated.json.allowed_origins, origins);
    const shown = await cli('store', 'show', handle);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(shown.json.allowed_origins, origins);
    assert.equal(await corsOf(key, 'https://a.example'), 'https://a.example');
    assert.equal(await corsOf(key, 'https://b.example:8443'), 'https://b.example:8443');
    assert.equal(await corsOf(key, 'https://c.example'), undefined);

    const cleared = await cli('store', 'update', handle, '--allowed-origins', 'none');
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.deepEqual(cleared.json.allowed_origins, []);
    assert.deepEqual((await cli('store', 'show', handle)).json.allowed_origins, []);
    assert.equal(await corsOf(key, 'https://a.example'), undefined);
  });

  it('refuses what is not an origin (exit 2), changing nothing', async () => {
    const handle = `bad-cors-${suite.target.name}`;
    assert.equal((await cli('store', 'create', '--handle', handle, '--name', 'Shop')).code, 0);
    assert.equal((await cli('store', 'update', handle, '--allowed-origins', 'https://ok.example')).code, 0);
    for (const bad of ['ftp://files.example', 'https://a.example/blog', '*']) {
      const res = await cli('store', 'update', handle, '--allowed-origins', bad);
      assert.equal(res.code, 2, bad);
      assert.equal(res.stdout, '');
      assert.match(res.stderr, /--allowed-origins takes comma-separated origins/);
    }
    assert.deepEqual((await cli('store', 'show', handle)).json.allowed_origins, ['https://ok.example']);
  });
});
