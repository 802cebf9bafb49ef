// Verified keys may be kept between requests (SQLite); a change to a key or its store made by
// anyone — this instance, another instance, the CLI's process — still applies on the next request.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { useTwoInstances } from '../helpers/second-instance.js';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';

describeEachEngine('key and store changes apply on the next request', (target) => {
  const pair = useTwoInstances(target);

  const me = (key: string) => pair.t.request({ method: 'GET', url: '/v1/me', key });
  const posts = (key: string) => pair.t.request({ method: 'GET', url: '/v1/blog/posts', key });

  it('refuses a key revoked by another instance, after it was used many times', async () => {
    const { key } = await pair.t.tenant();
    for (let i = 0; i < 3; i++) assert.equal((await me(key)).statusCode, 200);
    assert.equal(await pair.other.ctx.keys.revoke(key.slice(9, 17)), true);
    assertError(await me(key), 'unauthorized');
  });

  it('refuses a key revoked by another instance while this one is inside a transaction', async () => {
    const { key } = await pair.t.tenant();
    assert.equal((await me(key)).statusCode, 200);
    let pending: ReturnType<typeof me> | undefined;
    await pair.t.ctx.db.transaction().execute(async (trx) => {
      // A read opens the transaction's snapshot, which predates the revocation below.
      await trx.selectFrom('stores').select('id').execute();
      await pair.other.ctx.keys.revoke(key.slice(9, 17));
      pending = me(key);
      // Let the request run as far as it can while the transaction is still open.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    });
    assertError(await pending!, 'unauthorized');
  });

  it('refuses a key revoked by this instance', async () => {
    const { key } = await pair.t.tenant();
    assert.equal((await me(key)).statusCode, 200);
    await pair.t.ctx.keys.revoke(key.slice(9, 17));
    assertError(await me(key), 'unauthorized');
  });

  it('uses rate limits changed by another instance', async () => {
    const { key } = await pair.t.tenant();
    assert.equal((await me(key)).headers['x-ratelimit-limit'], '600');
    await pair.other.ctx.keys.update(key.slice(9, 17), { readPerMinute: 1234 });
    assert.equal((await me(key)).headers['x-ratelimit-limit'], '1234');
  });

  it('applies store gates and features changed by another instance', async () => {
    const { store, key } = await pair.t.tenant();
    assert.equal((await posts(key)).statusCode, 200);
    await pair.other.ctx.stores.update(store.handle, { certified: 0 });
    assertError(await posts(key), 'tenant_not_certified');
    await pair.other.ctx.stores.update(store.handle, { certified: 1, categories_enabled: 0 });
    assert.equal((await posts(key)).statusCode, 200);
    assertError(await pair.t.request({ method: 'GET', url: '/v1/blog/categories', key }), 'feature_unavailable');
  });

  it('refuses a key the moment the clock passes its expiry, however often it was used', async () => {
    const store = await pair.t.createStore();
    const key = await pair.t.issueKey(store, ['read_blog'], { expiresInDays: 1 });
    assert.equal((await me(key)).statusCode, 200);
    pair.t.clock.advance(24 * 3600 * 1000 - 1);
    assert.equal((await me(key)).statusCode, 200);
    pair.t.clock.advance(1);
    assertError(await me(key), 'unauthorized');
  });

  it('shows quota use, store changes and the new Taipei day in /v1/me on the next request', async () => {
    const { store, key } = await pair.t.tenant();
    const quota = async () => (await me(key)).json().quotas.posts_per_day;
    const before = await quota();
    assert.equal((await quota()).used, before.used);
    await createPost(pair.t, key);
    assert.equal((await quota()).used, before.used + 1);
    await pair.other.ctx.stores.update(store.handle, { name: 'Renamed elsewhere' });
    assert.equal((await me(key)).json().store.name, 'Renamed elsewhere');
    // The next Taipei midnight starts a new quota day.
    const resetsAt = Date.parse(before.resets_at);
    pair.t.clock.set(resetsAt - 1);
    assert.equal((await quota()).used, before.used + 1);
    pair.t.clock.set(resetsAt);
    const next = await quota();
    assert.equal(next.used, 0);
    assert.equal(Date.parse(next.resets_at), resetsAt + 24 * 3600 * 1000);
  });

  it('never accepts a wrong secret for a key id that was just used correctly', async () => {
    const { key } = await pair.t.tenant();
    assert.equal((await me(key)).statusCode, 200);
    const wrong = `${key.slice(0, -4)}${key.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    assertError(await me(wrong), 'unauthorized');
    assert.equal((await me(key)).statusCode, 200);
  });
});
