import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { runCli } from '../../src/cli/main.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('categories', (suite) => {
  let handle: string;
  before(() => {
    handle = suite.store.handle;
  });

  let n = 0;
  const create = (body: unknown, k = suite.key) =>
    suite.t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key: k,
      headers: { 'idempotency-key': `cat-${++n}` },
      body,
    });

  it('creates a tree up to the depth limit and lists all at once, ordered by id', async () => {
    const root = await create({ name: '  Recipes ' });
    assert.equal(root.statusCode, 201);
    assert.deepEqual(root.json(), {
      id: root.json().id,
      name: 'Recipes',
      parent_id: null,
      depth: 1,
      created_at: '2026-09-15T10:00:00+08:00',
      updated_at: '2026-09-15T10:00:00+08:00',
    });
    const child = (await create({ name: 'Cakes', parent_id: root.json().id })).json();
    const grandchild = (await create({ name: 'Chocolate', parent_id: child.id })).json();
    assert.deepEqual([child.depth, grandchild.depth], [2, 3]);
    assertError(await create({ name: 'Too deep', parent_id: grandchild.id }), 'validation_failed', [
      { field: 'parent_id', issue: 'would exceed the maximum category depth of 3' },
    ]);
    assertError(await create({ name: 'Orphan', parent_id: 99999999 }), 'validation_failed', [
      { field: 'parent_id', issue: 'is not a category of this store' },
    ]);
    const list = await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key: suite.key });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().data.map((c: any) => [c.name, c.parent_id, c.depth]),
      [
        ['Recipes', null, 1],
        ['Cakes', root.json().id, 2],
        ['Chocolate', child.id, 3],
      ],
    );
    assert.deepEqual(Object.keys(list.json()), ['data']);
  });

  it('answers category_name_conflict with the existing id for the same name under the same parent', async () => {
    const a = (await create({ name: 'Travel' })).json();
    assertError(await create({ name: 'Travel' }), 'category_name_conflict', [
      { field: 'category_id', issue: String(a.id) },
    ]);
    assertError(await create({ name: ' Travel', parent_id: null }), 'category_name_conflict', [
      { field: 'category_id', issue: String(a.id) },
    ]);
    const sub = await create({ name: 'Travel', parent_id: a.id });
    assert.equal(sub.statusCode, 201, 'same name under another parent is fine');
  });

  it('validates the name and refuses unknown fields', async () => {
    assertError(await create({ name: '   ' }), 'validation_failed', [
      { field: 'name', issue: 'must be 1 to 100 characters after trimming' },
    ]);
    assertError(await create({ name: 'x'.repeat(101) }), 'validation_failed', [
      { field: 'name', issue: 'must be 1 to 100 characters after trimming' },
    ]);
    assertError(await create({ name: 'ok', slug: 'ok' }), 'validation_failed', [
      { field: 'slug', issue: 'is not a recognised field' },
    ]);
    assertError(
      await suite.t.request({ method: 'POST', url: '/v1/blog/categories', key: suite.key, body: { name: 'no key' } }),
      'validation_failed',
      [{ field: 'Idempotency-Key', issue: 'is required' }],
    );
  });

  it('replays an identical create and records one audit event', async () => {
    const body = { name: 'Once only' };
    const first = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key: suite.key,
      headers: { 'idempotency-key': 'same' },
      body,
    });
    const again = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key: suite.key,
      headers: { 'idempotency-key': 'same' },
      body,
    });
    assert.equal(again.statusCode, 201);
    assert.equal(again.body, first.body);
    const events = (
      await suite.t.request({
        method: 'GET',
        url: `/v1/audit/events?resource_type=category&resource_id=${first.json().id}`,
        key: suite.key,
      })
    ).json().data;
    assert.deepEqual(
      events.map((e: any) => [e.action, e.changes]),
      [['category.created', ['name', 'parent_id']]],
    );
  });

  it('answers 404 feature_unavailable on both endpoints when categories are off', async () => {
    const off = await suite.t.tenant({ categories: false });
    assertError(
      await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key: off.key }),
      'feature_unavailable',
    );
    assertError(await create({ name: 'x' }, off.key), 'feature_unavailable');
  });

  it('needs read_blog to list and write_blog to create', async () => {
    const store = await suite.t.createStore();
    const audit = await suite.t.issueKey(store, ['read_audit']);
    assertError(
      await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key: audit }),
      'insufficient_scope',
      [{ field: 'scope', issue: 'required: read_blog' }],
    );
    assertError(await create({ name: 'x' }, await suite.t.issueKey(store, ['read_blog'])), 'insufficient_scope', [
      { field: 'scope', issue: 'required: write_blog' },
    ]);
  });

  it('lets the back office rename, move and delete categories', async () => {
    process.env.DATABASE_URL = suite.t.config.database.url;
    const parent = (await create({ name: 'Parent' })).json();
    const leaf = (await create({ name: 'Leaf' })).json();
    const renamed = await runCli(['category', 'rename', handle, String(leaf.id), 'Renamed leaf']);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.equal(JSON.parse(renamed.stdout).name, 'Renamed leaf');
    const moved = await runCli(['category', 'move', handle, String(leaf.id), '--parent', String(parent.id)]);
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual([JSON.parse(moved.stdout).parent_id, JSON.parse(moved.stdout).depth], [parent.id, 2]);
    const cycle = await runCli(['category', 'move', handle, String(parent.id), '--parent', String(leaf.id)]);
    assert.equal(cycle.code, 1);
    assert.match(cycle.stderr, /descendants/);
    const post = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key: suite.key,
      headers: { 'idempotency-key': 'p-cat' },
      body: { title: 'In leaf', body_html: 'x', category_ids: [leaf.id], default_category_id: leaf.id },
    });
    const deleted = await runCli(['category', 'delete', handle, String(leaf.id)]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const after = (
      await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${post.json().id}`, key: suite.key })
    ).json();
    assert.deepEqual([after.category_ids, after.default_category_id], [[], null]);
  });
});
