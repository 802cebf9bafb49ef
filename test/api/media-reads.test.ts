// GET /v1/media/images and GET /v1/media/images/{id} through HTTP on both engines: newest first,
// paged with signed cursors, each image exactly as its upload answered it; deleted and other
// stores' images are not there; scope, feature and parameter errors in their whole envelope.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import { deleteImage, upload, uniqueJpeg, type UploadedImage as Image } from './media-support.js';

type ImagePage = { data: Image[]; meta: { next_cursor: string | null; limit: number } };

describeTenantApp('image reads', { tenant: false }, (suite) => {
  let key: string;
  /** The suite store's images as their uploads answered them, newest first. */
  let uploaded: Image[] = [];

  const newImage = async (k: string): Promise<Image> => {
    const res = await upload(suite.t, k, await uniqueJpeg());
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  };
  const list = (query = '', k = key) => suite.t.request({ method: 'GET', url: `/v1/media/images${query}`, key: k });
  const get = (id: string, k = key) => suite.t.request({ method: 'GET', url: `/v1/media/images/${id}`, key: k });
  const page = async (query = '', k = key): Promise<ImagePage> => {
    const res = await list(query, k);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    return res.json();
  };
  /** Follows next_cursor to the end, checking each page's size. */
  const walk = async (limit: number, k = key): Promise<Image[]> => {
    const seen: Image[] = [];
    let cursor: string | null = null;
    do {
      const p: ImagePage = await page(`?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, k);
      assert.equal(p.meta.limit, limit);
      assert.ok(p.data.length <= limit);
      if (p.meta.next_cursor !== null) assert.equal(p.data.length, limit, 'only the last page is short');
      seen.push(...p.data);
      cursor = p.meta.next_cursor;
    } while (cursor !== null);
    return seen;
  };

  before(async () => {
    ({ key } = await suite.t.tenant());
    // Seven uploads over four instants: three share one millisecond, two another, so the order
    // of equal upload times (by id) is paged across too.
    const batches = [1, 3, 1, 2];
    const byTime: Image[][] = [];
    for (const size of batches) {
      suite.t.clock.advance(1000);
      const batch: Image[] = [];
      for (let i = 0; i < size; i++) batch.push(await newImage(key));
      byTime.push(batch.sort((a, b) => (a.id < b.id ? 1 : -1)));
    }
    uploaded = byTime.reverse().flat();
  });

  it('lists the images newest first, each exactly as its upload answered it, 20 by default', async () => {
    const first = await page();
    assert.deepEqual(first, { data: uploaded, meta: { next_cursor: null, limit: 20 } });
  });

  it('pages with signed cursors: every image once, in order, at any page size', async () => {
    for (const limit of [1, 2, 3, 6, 7, 50]) assert.deepEqual(await walk(limit), uploaded, `limit ${limit}`);
  });

  it('answers one image exactly as its upload and the list show it', async () => {
    for (const image of uploaded) {
      const res = await get(image.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(res.json(), image);
    }
  });

  it('a deleted image is neither listed nor found; a cursor past it still continues', async () => {
    const { key: own } = await suite.t.tenant();
    const images: Image[] = [];
    for (let i = 0; i < 4; i++) {
      suite.t.clock.advance(1000);
      images.unshift(await newImage(own));
    }
    const firstPage = await page('?limit=2', own);
    assert.deepEqual(firstPage.data, images.slice(0, 2));
    // The last image of the page (the cursor's position) goes.
    assert.equal((await deleteImage(suite.t, own, images[1].id)).statusCode, 204);
    assertError(await get(images[1].id, own), 'not_found');
    const rest = await page(`?limit=2&cursor=${encodeURIComponent(firstPage.meta.next_cursor!)}`, own);
    assert.deepEqual(rest, { data: images.slice(2), meta: { next_cursor: null, limit: 2 } });
    assert.deepEqual(await walk(20, own), [images[0], images[2], images[3]]);
  });

  it('answers 404 not_found for unknown, malformed and another store’s ids, and lists only the store’s own images', async () => {
    const other = await suite.t.tenant();
    const theirs = await newImage(other.key);
    assertError(await get(theirs.id), 'not_found');
    assertError(await get('img_aaaaaaaaaaaaaaaaaaaaaaaa'), 'not_found');
    assertError(await get('not-an-id'), 'not_found');
    assertError(await get('IMG_' + theirs.id.slice(4)), 'not_found');
    assert.ok(!(await walk(50)).some((image) => image.id === theirs.id));
    assert.deepEqual((await page('', other.key)).data, [theirs]);
    // Still theirs, untouched.
    assert.deepEqual((await get(theirs.id, other.key)).json(), theirs);
  });

  it('an empty store lists nothing', async () => {
    const empty = await suite.t.tenant();
    assert.deepEqual(await page('', empty.key), { data: [], meta: { next_cursor: null, limit: 20 } });
  });

  it('refuses bad limits and cursors as the post list does', async () => {
    assertError(await list('?limit=0'), 'validation_failed', [{ field: 'limit', issue: 'must be >= 1' }]);
    assertError(await list('?limit=51'), 'validation_failed', [{ field: 'limit', issue: 'must be <= 50' }]);
    assertError(await list('?limit=abc'), 'validation_failed', [{ field: 'limit', issue: 'must be integer' }]);
    assertError(await list('?cursor='), 'validation_failed', [{ field: 'cursor', issue: /.+/ }]);
    assertError(await list('?status=draft'), 'validation_failed', [
      { field: 'status', issue: 'is not a recognised field' },
    ]);
    const cursor = (await page('?limit=2')).meta.next_cursor!;
    const notIssued = [{ field: 'cursor', issue: /^was not issued to this caller/ }];
    assertError(await list(`?cursor=${encodeURIComponent(cursor + 'x')}`), 'validation_failed', notIssued);
    assertError(await list('?cursor=abc.def'), 'validation_failed', notIssued);
    // Another store's cursor is not this caller's either.
    const other = await suite.t.tenant();
    await newImage(other.key);
    await newImage(other.key);
    const theirs = (await page('?limit=1', other.key)).meta.next_cursor!;
    assertError(await list(`?cursor=${encodeURIComponent(theirs)}`), 'validation_failed', notIssued);
    // A genuine cursor of this caller continues; the post list's, issued for another listing,
    // starts this one again from the first page.
    assert.deepEqual((await page(`?limit=2&cursor=${encodeURIComponent(cursor)}`)).data, uploaded.slice(2, 4));
    for (let i = 0; i < 3; i++) await createPost(suite.t, key);
    const postCursor = (await suite.t.request({ method: 'GET', url: '/v1/blog/posts?limit=2', key })).json().meta
      .next_cursor as string;
    assert.deepEqual((await page(`?limit=2&cursor=${encodeURIComponent(postCursor)}`)).data, uploaded.slice(0, 2));
  });

  it('needs read_blog (write_blog implies it): 403 insufficient_scope otherwise, 401 without a key', async () => {
    const { store } = await suite.t.tenant();
    const image = await newImage(await suite.t.issueKey(store, ['write_media']));
    for (const scopes of [['write_media'], ['publish_blog'], ['read_audit']] as const) {
      const k = await suite.t.issueKey(store, [...scopes]);
      for (const res of [await list('', k), await get(image.id, k)])
        assertError(res, 'insufficient_scope', [{ field: 'scope', issue: 'required: read_blog' }]);
    }
    for (const scopes of [['read_blog'], ['write_blog']] as const) {
      const k = await suite.t.issueKey(store, [...scopes]);
      assert.deepEqual((await page('', k)).data, [image]);
      assert.deepEqual((await get(image.id, k)).json(), image);
    }
    assertError(await suite.t.request({ method: 'GET', url: '/v1/media/images' }), 'unauthorized');
    assertError(await suite.t.request({ method: 'GET', url: `/v1/media/images/${image.id}` }), 'unauthorized');
  });

  it('answers 404 feature_unavailable when the store has media off, before looking at the id', async () => {
    const off = await suite.t.tenant({ media: false });
    assertError(await list('', off.key), 'feature_unavailable');
    assertError(await get(uploaded[0].id, off.key), 'feature_unavailable');
    assertError(await get('not-an-id', off.key), 'feature_unavailable');
    assertError(await list('?limit=0', off.key), 'feature_unavailable');
  });
});
