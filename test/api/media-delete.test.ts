// DELETE /v1/media/images/{id}, the public file route, and the helpers the posts code uses.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import {
  findOwnedImageByUrl,
  imagePublicRef,
  LocalMediaStore,
  MediaService,
  type MediaStore,
} from '../../src/modules/media/index.js';
import type { Store } from '../../src/modules/stores/index.js';
import { deleteImage, fetchFile, upload, uniqueJpeg } from './media-support.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

type Image = { id: string; basename: string; path: string; url: string; bytes: number; content_type: string };

describeTenantApp('DELETE /v1/media/images/{id}', (suite) => {
  const newImage = async (k = suite.key): Promise<Image> => {
    const res = await upload(suite.t, k, await uniqueJpeg());
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  };
  let postSeq = 0;
  const insertPost = async (storeId: number, fields: { cover_image_id?: string | null; body_html?: string }) => {
    const now = Date.parse('2026-09-15T02:00:00Z') + postSeq++;
    const row = await suite.t.ctx.db
      .insertInto('posts')
      .values({
        store_id: storeId,
        title: `Post ${postSeq}`,
        summary: null,
        body_html: fields.body_html ?? '<p>Hello</p>',
        warnings: '[]',
        cover_image_id: fields.cover_image_id ?? null,
        default_category_id: null,
        published_at: null,
        view_count: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };

  it('answers 204 with no body, then 404 for the same delete; the address stops working', async () => {
    const image = await newImage();
    assert.equal((await fetchFile(suite.t, image.path)).statusCode, 200);
    const res = await deleteImage(suite.t, suite.key, image.id);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assertError(await deleteImage(suite.t, suite.key, image.id), 'not_found');
    assertError(await fetchFile(suite.t, image.path), 'not_found');
    assert.equal((await suite.t.app.inject({ method: 'HEAD', url: image.path })).statusCode, 404);
    const row = await suite.t.ctx.db
      .selectFrom('images')
      .select('deleted_at')
      .where('id', '=', image.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.deleted_at), Date.parse('2026-09-15T02:00:00Z'));
  });

  it('answers 404 for unknown ids and for another store’s image, which stays', async () => {
    assertError(await deleteImage(suite.t, suite.key, 'img_aaaaaaaaaaaaaaaaaaaaaaaa'), 'not_found');
    assertError(await deleteImage(suite.t, suite.key, 'not-an-id'), 'not_found');
    const other = await suite.t.tenant();
    const theirs = await newImage(other.key);
    assertError(await deleteImage(suite.t, suite.key, theirs.id), 'not_found');
    assert.equal((await fetchFile(suite.t, theirs.path)).statusCode, 200);
  });

  it('refuses with 409 image_in_use while a post uses it as cover, by url or by path', async () => {
    const byCover = await newImage();
    const coverPost = await insertPost(suite.store.id, { cover_image_id: byCover.id });
    assertError(await deleteImage(suite.t, suite.key, byCover.id), 'image_in_use', [
      { field: 'post_id', issue: String(coverPost) },
    ]);

    const byUrl = await newImage();
    const urlPost = await insertPost(suite.store.id, { body_html: `<p><img src="${byUrl.url}" alt=""></p>` });
    assertError(await deleteImage(suite.t, suite.key, byUrl.id), 'image_in_use', [
      { field: 'post_id', issue: String(urlPost) },
    ]);

    const byPath = await newImage();
    const pathPost = await insertPost(suite.store.id, { body_html: `<p><a href="${byPath.path}">full size</a></p>` });
    const draft = await insertPost(suite.store.id, { cover_image_id: byPath.id });
    assertError(await deleteImage(suite.t, suite.key, byPath.id), 'image_in_use', [
      { field: 'post_id', issue: String(pathPost) },
      { field: 'post_id', issue: String(draft) },
    ]);

    // Still live and served; the refusal changed nothing.
    assert.equal((await fetchFile(suite.t, byPath.path)).statusCode, 200);

    // Replacing the references lets the delete through.
    await suite.t.ctx.db
      .updateTable('posts')
      .set({ cover_image_id: null, body_html: '<p>none</p>' })
      .where('id', 'in', [coverPost, pathPost, draft])
      .execute();
    assert.equal((await deleteImage(suite.t, suite.key, byCover.id)).statusCode, 204);
    assert.equal((await deleteImage(suite.t, suite.key, byPath.id)).statusCode, 204);
  });

  it('lists at most 20 posts, ordered by post id', async () => {
    const image = await newImage();
    const ids: number[] = [];
    for (let i = 0; i < 23; i++)
      ids.push(
        await insertPost(
          suite.store.id,
          i % 2 ? { cover_image_id: image.id } : { body_html: `<img src="${image.url}">` },
        ),
      );
    const err = assertError(
      await deleteImage(suite.t, suite.key, image.id),
      'image_in_use',
      ids.slice(0, 20).map((id) => ({ field: 'post_id', issue: String(id) })),
    );
    assert.equal(err.details.length, 20);
  });

  it('ignores posts of other stores', async () => {
    const image = await newImage();
    const other = await suite.t.createStore();
    await insertPost(other.id, { body_html: `<img src="${image.url}">` });
    assert.equal((await deleteImage(suite.t, suite.key, image.id)).statusCode, 204);
  });

  it('restores the image and answers 500 when the file cannot be removed; its audit event and deliveries are withdrawn, the feed records its return', async () => {
    // An endpoint listening to every event (an address given as IP: nothing is resolved or sent here).
    const endpoint = await suite.t.request({
      method: 'POST',
      url: '/v1/webhooks',
      key: suite.key,
      body: { url: 'https://93.184.215.14/hooks', events: ['*'] },
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const image = await newImage();
    // This image's events in the feed, in order.
    const imageEvents = async () =>
      (await suite.t.request({ method: 'GET', url: '/v1/events?types=image.*', key: suite.key }))
        .json()
        .data.filter((e: any) => e.data.id === image.id)
        .map((e: any) => e.type);
    const pendingDeliveries = async () =>
      Number(
        (
          await suite.t.ctx.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('store_id', '=', suite.store.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const uploadDeliveries = await pendingDeliveries();
    assert.ok(uploadDeliveries >= 1, 'the upload was announced');
    const local = new LocalMediaStore(suite.t.config.mediaDir);
    const failing: MediaStore = {
      put: (h, b, d) => local.put(h, b, d),
      stat: (h, b) => local.stat(h, b),
      check: () => local.check(),
      open: (h, b) => local.open(h, b),
      list: (a, l) => local.list(a, l),
      removeLeftovers: (o) => local.removeLeftovers(o),
      close: () => local.close(),
      remove: async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    };
    const original = suite.t.ctx.media;
    suite.t.ctx.media = new MediaService(
      suite.t.ctx.db,
      suite.t.clock,
      failing,
      suite.t.config.publicBaseUrl,
      original.settings,
    );
    try {
      assertError(await deleteImage(suite.t, suite.key, image.id), 'internal_error');
    } finally {
      suite.t.ctx.media = original;
    }
    const served = await fetchFile(suite.t, image.path);
    assert.equal(served.statusCode, 200);
    assert.equal(served.rawPayload.length, image.bytes);
    const row = await suite.t.ctx.db
      .selectFrom('images')
      .select('deleted_at')
      .where('id', '=', image.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.deleted_at, null);
    const events = (
      await suite.t.request({ method: 'GET', url: `/v1/audit/events?resource_id=${image.id}`, key: suite.key })
    ).json().data;
    assert.deepEqual(
      events.map((e: any) => e.action),
      ['image.uploaded'],
      'the failed deletion left no event',
    );
    // A mirror following the feed may have read the deletion: the image's return follows it.
    assert.deepEqual(await imageEvents(), ['image.uploaded', 'image.deleted', 'image.uploaded']);
    assert.equal(await pendingDeliveries(), uploadDeliveries + 1, 'no delivery of the deletion, one of the return');
    assert.ok(
      suite.t.logs.some((line) => line.includes('file could not be removed')),
      'the cause is logged',
    );

    // With a working store the same delete now succeeds, and is announced.
    assert.equal((await deleteImage(suite.t, suite.key, image.id)).statusCode, 204);
    assert.deepEqual(await imageEvents(), ['image.uploaded', 'image.deleted', 'image.uploaded', 'image.deleted']);
    assertError(await fetchFile(suite.t, image.path), 'not_found');
  });
});

describeEachEngine('GET /media/{handle}/{basename} and helpers', (target) => {
  let t: TestApp;
  let store: Store;
  let key: string;
  let image: Image;
  before(async () => {
    t = await startTestApp(target);
    ({ store, key } = await t.tenant());
    image = (await upload(t, key, await uniqueJpeg())).json();
  });
  after(() => t?.close());

  it('serves the stored bytes publicly with the exact type and long-lived caching', async () => {
    const res = await fetchFile(t, image.path);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/jpeg');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['etag'], `"${image.basename.slice(0, 24)}"`);
    assert.equal(res.headers['content-length'], String(image.bytes));
    assert.equal(res.rawPayload.length, image.bytes);
  });

  it('answers HEAD with the headers only, and 304 for a matching If-None-Match', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: image.path });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-length'], String(image.bytes));
    assert.equal(head.headers['content-type'], 'image/jpeg');
    assert.equal(head.rawPayload.length, 0);
    const etag = String(head.headers['etag']);
    const cached = await t.app.inject({
      method: 'GET',
      url: image.path,
      headers: { 'if-none-match': `W/"x", ${etag}` },
    });
    assert.equal(cached.statusCode, 304);
    assert.equal(cached.rawPayload.length, 0);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: image.path, headers: { 'if-none-match': '"other"' } })).statusCode,
      200,
    );
  });

  it('answers the JSON 404 for unknown, mismatched or malformed addresses', async () => {
    const other = await t.createStore();
    for (const url of [
      `/media/${store.handle}/aaaaaaaaaaaaaaaaaaaaaaaa.jpg`,
      `/media/${other.handle}/${image.basename}`,
      `/media/${store.handle}/${image.basename.toUpperCase()}`,
      `/media/${store.handle}/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/media/..%2F${store.handle}/${image.basename}`,
      `/media/${store.handle}/.upload-abc.tmp`,
      `/media/${store.handle}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      assertError(res, 'not_found');
    }
  });

  it('findOwnedImageByUrl finds only this store’s live image by its exact url', async () => {
    const base = t.config.publicBaseUrl;
    assert.deepEqual(await findOwnedImageByUrl(t.ctx.db, store, image.url, base), {
      id: image.id,
      basename: image.basename,
      path: image.path,
      url: image.url,
    });
    const other = await t.createStore();
    assert.equal(await findOwnedImageByUrl(t.ctx.db, other, image.url, base), null);
    for (const variant of [
      `${image.url}?v=1`,
      image.path,
      image.url.replace('http://', 'https://'),
      `${image.url}/`,
      image.url.toUpperCase(),
    ]) {
      assert.equal(await findOwnedImageByUrl(t.ctx.db, store, variant, base), null, variant);
    }
    assert.deepEqual(imagePublicRef(store.handle, image.basename, base), { path: image.path, url: image.url });

    const gone = (await upload(t, key, await uniqueJpeg())).json();
    assert.equal((await deleteImage(t, key, gone.id)).statusCode, 204);
    assert.equal(await findOwnedImageByUrl(t.ctx.db, store, gone.url, base), null);
  });
});
