// Creating a category completes its idempotent request the way creating a post does: the
// response for replays commits in the category's own transaction; a refused create frees the key.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import type { Store } from '../../src/modules/stores/index.js';

describeEachEngine('category creation and idempotency', (target) => {
  let t: TestApp;
  let store: Store;
  let key: string;
  before(async () => {
    t = await startTestApp(target);
    ({ store, key } = await t.tenant());
  });
  after(async () => t?.close());

  const create = (idem: string, body: unknown) => t.request({ method: 'POST', url: '/v1/blog/categories', key, headers: { 'idempotency-key': idem }, body });
  const record = (idem: string) =>
    t.ctx.db.selectFrom('idempotency_records').selectAll().where('store_id', '=', store.id).where('idem_key', '=', idem).executeTakeFirst();

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
    const all = (await t.request({ method: 'GET', url: '/v1/blog/categories', key })).json().data;
    assert.equal(all.filter((c: { name: string }) => c.name === 'Recipes').length, 1);
  });

  it('a refused create leaves no record: the same key then serves a different request', async () => {
    const existing = (await create('cat-first', { name: 'Travel' })).json();
    assertError(await create('cat-refused', { name: 'Travel' }), 'category_name_conflict', [{ field: 'category_id', issue: String(existing.id) }]);
    assert.equal(await record('cat-refused'), undefined);
    const other = await create('cat-refused', { name: 'Travel notes' });
    assert.equal(other.statusCode, 201);
    assert.equal(other.json().name, 'Travel notes');
  });
});
