// Issuing a key draws a new id only when the drawn one is taken; any other failure is reported
// at once, after a single attempt.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('key issue', { tenant: false }, (suite) => {
  it('a key for a store that does not exist fails after one insert, not four', async () => {
    const before = suite.t.ctx.queryCount();
    await assert.rejects(
      suite.t.ctx.keys.issue({ storeId: 987_654, application: 'nobody', scopes: ['read_blog'] }),
      (err: { code?: string }) => /FOREIGN|23503/.test(String(err.code)),
    );
    assert.equal(suite.t.ctx.queryCount() - before, 1);
    const rows = await suite.t.ctx.db.selectFrom('api_keys').select('key_id').where('store_id', '=', 987_654).execute();
    assert.deepEqual(rows, []);
  });

  it('an ordinary issue inserts once and the key works', async () => {
    const { store } = await suite.t.tenant();
    const before = suite.t.ctx.queryCount();
    const issued = await suite.t.ctx.keys.issue({
      storeId: store.id,
      application: 'issued-app',
      scopes: ['read_blog'],
    });
    assert.equal(suite.t.ctx.queryCount() - before, 1);
    const me = await suite.t.request({ method: 'GET', url: '/v1/me', key: issued.key });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().key_id, issued.keyId);
  });
});
