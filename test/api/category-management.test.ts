// PATCH and DELETE /v1/blog/categories/{id}: rename, move (cycles, depth limit with the
// subtree), delete (children refused; posts lose the category in the same transaction).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('category management', (suite) => {
  let n = 0;
  const create = async (name: string, parent_id: number | null = null) => {
    const res = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key: suite.key,
      headers: { 'idempotency-key': `cm-${++n}` },
      body: { name, parent_id },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: number; name: string; parent_id: number | null; depth: number };
  };
  const patch = (id: number, body: unknown, k = suite.key) =>
    suite.t.request({ method: 'PATCH', url: `/v1/blog/categories/${id}`, key: k, body });
  const remove = (id: number, k = suite.key) =>
    suite.t.request({ method: 'DELETE', url: `/v1/blog/categories/${id}`, key: k });
  const tree = async () => {
    const res = await suite.t.request({ method: 'GET', url: '/v1/blog/categories', key: suite.key });
    return new Map(
      (res.json().data as Array<{ id: number; parent_id: number | null; depth: number; name: string }>).map((c) => [
        c.id,
        c,
      ]),
    );
  };
  const audit = async (type: string, id: number) =>
    (
      await suite.t.request({
        method: 'GET',
        url: `/v1/audit/events?resource_type=${type}&resource_id=${id}`,
        key: suite.key,
      })
    )
      .json()
      .data.map((e: any) => [e.action, e.changes]);

  it('renames: 200 with the category, same conflict rule, audit category.updated', async () => {
    const a = await create('Alpha');
    const b = await create('Beta');
    suite.t.clock.advance(60_000);
    const res = await patch(a.id, { name: '  Alpha renamed ' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      ...a,
      name: 'Alpha renamed',
      created_at: res.json().created_at,
      updated_at: res.json().updated_at,
    });
    assert.notEqual(res.json().updated_at, res.json().created_at);
    assertError(await patch(a.id, { name: 'Beta' }), 'category_name_conflict', [
      { field: 'category_id', issue: String(b.id) },
    ]);
    assert.equal((await tree()).get(a.id)?.name, 'Alpha renamed', 'a refused rename changes nothing');
    assert.deepEqual(await audit('category', a.id), [
      ['category.updated', ['name']],
      ['category.created', ['name', 'parent_id']],
    ]);
  });

  it('validates the body and answers 404 for an unknown or another store’s category', async () => {
    const c = await create('Gamma');
    assertError(await patch(c.id, {}), 'validation_failed', [
      { field: 'body', issue: 'must contain at least one field' },
    ]);
    assertError(await patch(c.id, { name: '   ' }), 'validation_failed', [
      { field: 'name', issue: 'must be 1 to 100 characters after trimming' },
    ]);
    assertError(await patch(c.id, { slug: 'x' }), 'validation_failed', [
      { field: 'slug', issue: 'is not a recognised field' },
    ]);
    assertError(await patch(c.id, { parent_id: 0 }), 'validation_failed', [
      { field: 'parent_id', issue: 'must be >= 1' },
    ]);
    assertError(await patch(c.id, { parent_id: 99999999 }), 'validation_failed', [
      { field: 'parent_id', issue: 'is not a category of this store' },
    ]);
    assertError(await patch(99999999, { name: 'x' }), 'not_found');
    const other = await suite.t.tenant();
    assertError(await patch(c.id, { name: 'stolen' }, other.key), 'not_found');
    assertError(await remove(c.id, other.key), 'not_found');
    assertError(await remove(99999999), 'not_found');
    assert.equal((await tree()).get(c.id)?.name, 'Gamma');
  });

  it('moves with the subtree, refuses cycles, and keeps the deepest category within the limit (3)', async () => {
    const a = await create('A');
    const b = await create('B', a.id);
    const c = await create('C', b.id);
    const d = await create('D');
    const e = await create('E', d.id);
    // Under itself or a descendant.
    for (const target of [a.id, b.id, c.id]) {
      assertError(await patch(a.id, { parent_id: target }), 'validation_failed', [
        { field: 'parent_id', issue: 'cannot be the category itself or one of its descendants' },
      ]);
    }
    // D (with E below) under B: E would be at depth 4.
    assertError(await patch(d.id, { parent_id: b.id }), 'validation_failed', [
      {
        field: 'parent_id',
        issue: "would exceed the maximum category depth of 3 (the category's subtree is 2 levels deep)",
      },
    ]);
    assertError(await patch(e.id, { parent_id: c.id }), 'validation_failed', [
      { field: 'parent_id', issue: /maximum category depth of 3/ },
    ]);
    // D under A: exactly at the limit.
    const moved = await patch(d.id, { parent_id: a.id });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual([moved.json().parent_id, moved.json().depth], [a.id, 2]);
    let now = await tree();
    assert.deepEqual([now.get(e.id)?.parent_id, now.get(e.id)?.depth], [d.id, 3], 'the subtree moved along');
    // B (with C) to the root: depths shrink.
    const up = await patch(b.id, { parent_id: null });
    assert.equal(up.statusCode, 200, up.body);
    now = await tree();
    assert.deepEqual([now.get(b.id)?.depth, now.get(c.id)?.depth, now.get(c.id)?.parent_id], [1, 2, b.id]);
    // A now holds D → E (3 levels): it cannot go under anything.
    assertError(await patch(a.id, { parent_id: b.id }), 'validation_failed', [
      { field: 'parent_id', issue: /subtree is 3 levels deep/ },
    ]);
    assert.deepEqual(await audit('category', d.id), [
      ['category.updated', ['parent_id']],
      ['category.created', ['name', 'parent_id']],
    ]);
  });

  it('a move and a rename together: the name must be free under the new parent', async () => {
    const p = await create('Parent');
    const taken = await create('Child', p.id);
    const x = await create('Loose');
    assertError(await patch(x.id, { parent_id: p.id, name: 'Child' }), 'category_name_conflict', [
      { field: 'category_id', issue: String(taken.id) },
    ]);
    assertError(await patch(taken.id, { parent_id: null, name: 'Loose' }), 'category_name_conflict', [
      { field: 'category_id', issue: String(x.id) },
    ]);
    const both = await patch(x.id, { parent_id: p.id, name: 'Child 2' });
    assert.equal(both.statusCode, 200, both.body);
    assert.deepEqual([both.json().name, both.json().parent_id, both.json().depth], ['Child 2', p.id, 2]);
    assert.deepEqual((await audit('category', x.id))[0], ['category.updated', ['name', 'parent_id']]);
  });

  it('deletes: refused while it has children; otherwise posts lose it in the same transaction, with audit events', async () => {
    const parent = await create('Shelf');
    const child = await create('Book', parent.id);
    const keep = await create('Keep');
    assertError(await remove(parent.id), 'category_has_children', [
      { field: 'child_category_ids', issue: String(child.id) },
    ]);
    const linked = await createPost(suite.t, suite.key, {
      category_ids: [child.id, keep.id],
      default_category_id: child.id,
    });
    const alsoLinked = await createPost(suite.t, suite.key, {
      category_ids: [child.id, keep.id],
      default_category_id: keep.id,
    });
    const unrelated = await createPost(suite.t, suite.key, { category_ids: [keep.id] });
    suite.t.clock.advance(60_000);
    const res = await remove(child.id);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, '');
    const get = async (id: number) =>
      (await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key: suite.key })).json();
    const [a, b, c] = [await get(linked.id), await get(alsoLinked.id), await get(unrelated.id)];
    assert.deepEqual([a.category_ids, a.default_category_id], [[keep.id], null]);
    assert.deepEqual([b.category_ids, b.default_category_id], [[keep.id], keep.id]);
    assert.notEqual(a.updated_at, linked.updated_at, 'a changed post gets a new updated_at (a sync sees it)');
    assert.deepEqual(c, { ...c, updated_at: unrelated.updated_at, category_ids: [keep.id] });
    assert.deepEqual((await audit('post', linked.id))[0], ['post.updated', ['category_ids', 'default_category_id']]);
    assert.deepEqual((await audit('post', alsoLinked.id))[0], ['post.updated', ['category_ids']]);
    assert.deepEqual((await audit('post', unrelated.id))[0], ['post.created', ['body_html', 'category_ids', 'title']]);
    assert.deepEqual((await audit('category', child.id))[0], ['category.deleted', []]);
    assert.equal((await tree()).has(child.id), false);
    assertError(await remove(child.id), 'not_found');
    // The parent has no children left now.
    assert.equal((await remove(parent.id)).statusCode, 204);
    const listed = await suite.t.request({
      method: 'GET',
      url: `/v1/blog/posts?category_id=${child.id}`,
      key: suite.key,
    });
    assert.deepEqual(listed.json().data, []);
  });

  it('needs write_blog, and categories enabled', async () => {
    const c = await create('Scoped');
    const store = await suite.t.createStore();
    const reader = await suite.t.issueKey(store, ['read_blog']);
    assertError(await patch(c.id, { name: 'x' }, reader), 'insufficient_scope', [
      { field: 'scope', issue: 'required: write_blog' },
    ]);
    assertError(await remove(c.id, reader), 'insufficient_scope', [{ field: 'scope', issue: 'required: write_blog' }]);
    const off = await suite.t.tenant({ categories: false });
    assertError(await patch(c.id, { name: 'x' }, off.key), 'feature_unavailable');
    assertError(await remove(c.id, off.key), 'feature_unavailable');
  });
});
