// `key update` prints its times at the offset of the key's store, like `key issue` and `key list`.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('key update times', { tenant: false }, (suite) => {
  const cli = (...args: string[]) => runCli({ DATABASE_URL: suite.t.config.database.url }, ...args);

  it('answers at the store’s own offset, not a fixed +08:00', async () => {
    assert.equal((await cli('store', 'create', '--handle', 'ny-shop', '--name', 'New York Shop')).code, 0);
    const moved = await cli('store', 'update', 'ny-shop', '--utc-offset=-05:00');
    assert.equal(moved.code, 0, moved.stderr);
    const issued = await cli('key', 'issue', '--store', 'ny-shop', '--app', 'ny-app', '--scopes', 'read_blog');
    assert.equal(issued.code, 0, issued.stderr);
    const updated = await cli('key', 'update', issued.json.key_id, '--expires-at', '2027-01-01T00:00:00+08:00');
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.json.expires_at, '2026-12-31T11:00:00-05:00');
    assert.match(updated.json.created_at, /-05:00$/);
    const listed = await cli('key', 'list', '--store', 'ny-shop');
    const inList = listed.json.keys.find((k: { key_id: string }) => k.key_id === issued.json.key_id);
    assert.deepEqual(updated.json, inList, 'update prints the key exactly as list does');
  });
});
