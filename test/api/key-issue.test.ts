// Issuing a key draws a new id only when the drawn one is taken; any other failure is reported
// at once, after a single attempt.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describeEachEngine('key issue', (target) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target);
  });
  after(async () => t?.close());

  it('a key for a store that does not exist fails after one insert, not four', async () => {
    const before = t.ctx.queryCount();
    await assert.rejects(t.ctx.keys.issue({ storeId: 987_654, application: 'nobody', scopes: ['read_blog'] }), (err: { code?: string }) =>
      /FOREIGN|23503/.test(String(err.code)),
    );
    assert.equal(t.ctx.queryCount() - before, 1);
    const rows = await t.ctx.db.selectFrom('api_keys').select('key_id').where('store_id', '=', 987_654).execute();
    assert.deepEqual(rows, []);
  });

  it('an ordinary issue inserts once and the key works', async () => {
    const { store } = await t.tenant();
    const before = t.ctx.queryCount();
    const issued = await t.ctx.keys.issue({ storeId: store.id, application: 'issued-app', scopes: ['read_blog'] });
    assert.equal(t.ctx.queryCount() - before, 1);
    const me = await t.request({ method: 'GET', url: '/v1/me', key: issued.key });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().key_id, issued.keyId);
  });
});
