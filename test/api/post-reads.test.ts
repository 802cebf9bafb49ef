// Reads of posts and pages may be kept between requests (SQLite); what they show must still
// follow every write, from any instance, and the clock.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { useTwoInstances } from '../helpers/second-instance.js';
import { createPost, publish } from '../helpers/posts.js';

describeEachEngine('repeated reads follow writes and the clock', (target) => {
  const pair = useTwoInstances(target);

  const getPost = async (key: string, id: number) => {
    const res = await pair.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const listPage = async (key: string, query = '') => {
    const res = await pair.t.request({ method: 'GET', url: `/v1/blog/posts${query}`, key });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  it('shows a scheduled post as published from the exact millisecond of its time', async () => {
    const { key } = await pair.t.tenant();
    const post = await createPost(pair.t, key);
    const at = new Date(pair.t.clock.now().getTime() + 60_000);
    assert.equal((await publish(pair.t, key, post.id, at.toISOString())).statusCode, 200);
    for (let i = 0; i < 2; i++) {
      assert.equal((await getPost(key, post.id)).status, 'scheduled');
      assert.equal((await listPage(key)).data[0].status, 'scheduled');
    }
    pair.t.clock.set(at.getTime() - 1);
    assert.equal((await getPost(key, post.id)).public_url, null);
    pair.t.clock.set(at);
    const live = await getPost(key, post.id);
    assert.equal(live.status, 'published');
    assert.match(live.public_url, new RegExp(`/blog/posts/${post.id}$`));
    assert.equal((await listPage(key)).data[0].status, 'published');
    // A clock set back shows the post as it was then.
    pair.t.clock.set(at.getTime() - 1);
    assert.equal((await getPost(key, post.id)).status, 'scheduled');
    assert.equal((await listPage(key)).data[0].status, 'scheduled');
  });

  it('shows changes written by another instance on the next read', async () => {
    const { store, key } = await pair.t.tenant();
    const actor = { storeId: store.id, keyId: null, application: 'other instance', requestId: null };
    const post = await createPost(pair.t, key, { title: 'Before' });
    await getPost(key, post.id);
    await listPage(key);
    await pair.other.ctx.posts.update(store, post.id, { title: 'After' }, actor);
    assert.equal((await getPost(key, post.id)).title, 'After');
    assert.equal((await listPage(key)).data[0].title, 'After');

    const second = await createPost(pair.t, key, { title: 'Second' });
    assert.deepEqual(
      (await listPage(key)).data.map((p: { id: number }) => p.id),
      [second.id, post.id],
    );
    await pair.other.ctx.lifecycle.publish(store, second.id, undefined, actor);
    assert.equal((await listPage(key)).data[0].status, 'published');
  });

  it('shows a changed store time zone on the next read', async () => {
    const { store, key } = await pair.t.tenant();
    const post = await createPost(pair.t, key);
    assert.match((await getPost(key, post.id)).created_at, /\+08:00$/);
    assert.match((await listPage(key)).data[0].created_at, /\+08:00$/);
    await pair.other.ctx.stores.update(store.handle, { utc_offset: '+09:00' });
    assert.match((await getPost(key, post.id)).created_at, /\+09:00$/);
    assert.match((await listPage(key)).data[0].created_at, /\+09:00$/);
  });

  it('keeps each page of a walk apart, and a deleted post leaves the list at once', async () => {
    const { key } = await pair.t.tenant();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createPost(pair.t, key)).id);
    const first = await listPage(key, '?limit=2');
    const secondPage = await listPage(key, `?limit=2&cursor=${first.meta.next_cursor}`);
    assert.deepEqual(
      first.data.map((p: { id: number }) => p.id),
      [ids[4], ids[3]],
    );
    assert.deepEqual(
      secondPage.data.map((p: { id: number }) => p.id),
      [ids[2], ids[1]],
    );
    assert.deepEqual((await listPage(key, '?limit=2')).data, first.data);

    const del = (body?: object) =>
      pair.t.request({ method: 'DELETE', url: `/v1/blog/posts/${ids[4]}`, key, ...(body ? { body } : {}) });
    const asked = await del();
    assert.equal(asked.statusCode, 409, asked.body);
    const token = asked.json().error.details.find((d: { field: string }) => d.field === 'confirmation_token').issue;
    assert.equal((await del({ confirmation_token: token })).statusCode, 204);
    assert.deepEqual(
      (await listPage(key, '?limit=2')).data.map((p: { id: number }) => p.id),
      [ids[3], ids[2]],
    );
    assert.equal((await pair.t.request({ method: 'GET', url: `/v1/blog/posts/${ids[4]}`, key })).statusCode, 404);
  });
});
