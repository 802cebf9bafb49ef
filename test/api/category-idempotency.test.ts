// Creating a category completes its idempotent request the way creating a post does: the
// response for replays commits in the category's own transaction; a refused create frees the key.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('category creation and idempotency', (suite) => {
  const create = (idem: string, body: unknown) =>
    suite.t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key: suite.key,
      headers: { 'idempotency-key': idem },
      body,
    });
  const record = (idem: string) =>
    suite.t.ctx.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('store_id', '=', suite.store.id)
      .where('idem_key', '=', idem)
      .executeTakeFirst();

  it('stores the exact answer for replays, which then come back marked as replayed', async () => {
    const first = await create('cat-replay', { name: 'Recipes' });
    assert.equal(first.statusCode, 201);
    const stored = await record('cat-replay');
    assert.equal(stored?.state, 'completed');
    assert.equal(stored?.status_code, 201);
    assert.equal(stored?.response_body, first.body);
    assert.equal(stored?.location, null);
    const again = await create('cat-replay', { name: 'Recipes' });
    assert.equal(again.statusCode, 201);
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const all = (await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key: suite.key })).json().data;
    assert.equal(all.filter((c: { name: string }) => c.name === 'Recipes').length, 1);
  });

  it('a refused create leaves no record: the same key then serves a different request', async () => {
    const existing = (await create('cat-first', { name: 'Travel' })).json();
    assertError(await create('cat-refused', { name: 'Travel' }), 'category_name_conflict', [
      { field: 'category_id', issue: String(existing.id) },
    ]);
    assert.equal(await record('cat-refused'), undefined);
    const other = await create('cat-refused', { name: 'Travel notes' });
    assert.equal(other.statusCode, 201);
    assert.equal(other.json().name, 'Travel notes');
  });
});
