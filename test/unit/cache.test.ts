// The one cache interface: a value is served only under the version it was read under, within
// its clock window, and least recently used values go beyond the byte budget.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cache } from '../../src/cache/index.js';

describe('Cache', () => {
  it('serves a value only under the version it was read under', () => {
    const cache = new Cache<string, { v: number }>(1000);
    const value = { v: 1 };
    cache.set('a', value, { version: 3, now: 0, size: 10 });
    assert.equal(cache.get('a', 3, 0), value);
    assert.equal(cache.get('a', 4, 0), undefined);
    // A newer version drops the entry: the old version does not bring it back.
    assert.equal(cache.get('a', 3, 0), undefined);
  });

  it('never caches or serves without a version', () => {
    const cache = new Cache<string, object>(1000);
    cache.set('a', {}, { version: null, now: 0, size: 10 });
    assert.equal(cache.size, 0);
    cache.set('a', {}, { version: 1, now: 0, size: 10 });
    assert.equal(cache.get('a', null, 0), undefined);
  });

  it('does not let a value read under an older version replace a newer one', () => {
    const cache = new Cache<string, { v: number }>(1000);
    const newer = { v: 2 };
    cache.set('a', newer, { version: 5, now: 0, size: 10 });
    cache.set('a', { v: 1 }, { version: 4, now: 0, size: 10 });
    assert.equal(cache.get('a', 5, 0), newer);
  });

  it('serves a value only within [now, until) of the clock', () => {
    const cache = new Cache<string, object>(1000);
    const value = {};
    cache.set('a', value, { version: 1, now: 100, until: 200, size: 10 });
    assert.equal(cache.get('a', 1, 99), undefined, 'a clock set back');
    assert.equal(cache.get('a', 1, 100), value);
    assert.equal(cache.get('a', 1, 199), value);
    assert.equal(cache.get('a', 1, 200), undefined);
    assert.equal(cache.get('a', 1, 150), undefined, 'gone once its time passed');
  });

  it('drops the least recently used values beyond its byte budget, and never holds one larger than it', () => {
    const cache = new Cache<string, object>(100);
    for (const key of ['a', 'b', 'c']) cache.set(key, {}, { version: 1, now: 0, size: 40 });
    assert.equal(cache.get('a', 1, 0), undefined);
    assert.ok(cache.get('b', 1, 0));
    cache.set('d', {}, { version: 1, now: 0, size: 40 });
    assert.ok(cache.get('b', 1, 0), 'b was used more recently than c');
    assert.equal(cache.get('c', 1, 0), undefined);
    cache.set('huge', {}, { version: 1, now: 0, size: 101 });
    assert.equal(cache.get('huge', 1, 0), undefined);
  });
});
