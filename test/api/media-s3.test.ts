// Images on an S3-compatible object store (a real s3rver on an ephemeral port): the upload
// becomes an object whose bytes come back exactly, every instance serves it with the same
// headers as from the local folder, deletion removes it, and a store that is down or hangs
// answers 500 internal_error with nothing written.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine, sqliteEngine as sqlite } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { s3Suite, startS3, startSilentServer } from '../helpers/s3-server.js';
import { DEFAULT_IMAGE_LIMITS, processImage } from '../../src/modules/media/image-processor.js';
import { assertImageObject, deleteImage, fetchFile, multipartBody, upload, uniqueJpeg } from './media-support.js';

const s3 = await startS3();
after(() => s3.close());

type Image = { id: string; basename: string; path: string; bytes: number };

describeEachEngine('media on S3-compatible storage', (target) => {
  // A bucket and prefix belong to one deployment (one database): housekeeping removes what
  // that database does not know. Each engine's suite therefore has a prefix of its own.
  const prefix = `media-${target.name}/`;
  const suite = s3Suite(target, s3, prefix);

  const objectKey = (image: { basename: string }) => `${prefix}${suite.store.handle}/${image.basename}`;
  const imageRows = async () =>
    (await suite.t.ctx.db.selectFrom('images').select('id').where('store_id', '=', suite.store.id).execute()).length;

  it('stores the upload as an object and serves exactly its bytes, with the usual headers and 304', async () => {
    const input = await uniqueJpeg();
    // What the service stores: the re-encoded image (deterministic for the same input).
    const expected = (await processImage(input, DEFAULT_IMAGE_LIMITS)).data;
    const image = assertImageObject(await upload(suite.t, suite.key, input), 201, {
      contentType: 'image/jpeg',
      width: 16,
      height: 16,
      handle: suite.store.handle,
    });
    assert.equal(image.bytes, expected.length);

    const object = await s3.object(objectKey(image));
    assert.ok(object, 'the object exists under <prefix><handle>/<basename>');
    assert.ok(
      object.equals(expected),
      `the object holds the image bytes exactly (${object.length} vs ${expected.length} bytes)`,
    );

    const res = await fetchFile(suite.t, image.path);
    assert.equal(res.statusCode, 200);
    assert.ok(res.rawPayload.equals(expected), 'GET returns the stored bytes exactly');
    assert.equal(res.headers['content-type'], 'image/jpeg');
    assert.equal(res.headers['content-length'], String(expected.length));
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers.etag, `"${image.basename.slice(0, 24)}"`);
    assert.ok(Number.isFinite(Date.parse(String(res.headers['last-modified']))));

    const notModified = await suite.t.app.inject({
      method: 'GET',
      url: image.path,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.rawPayload.length, 0);
    const head = await suite.t.app.inject({ method: 'HEAD', url: image.path });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-length'], String(expected.length));
    assert.equal(head.rawPayload.length, 0);
  });

  it('serves an image uploaded through one instance from a second one at once, both ways', async () => {
    const first: Image = (await upload(suite.t, suite.key, await uniqueJpeg({ r: 1, g: 2, b: 3 }))).json();
    const fromOther = await suite.other.app.inject({ method: 'GET', url: first.path });
    assert.equal(fromOther.statusCode, 200);
    assert.ok(fromOther.rawPayload.equals((await fetchFile(suite.t, first.path)).rawPayload));

    const { payload, contentType } = multipartBody([
      { name: 'file', filename: 'a.jpg', data: await uniqueJpeg({ r: 9, g: 9, b: 9 }) },
    ]);
    const viaOther = await suite.other.app.inject({
      method: 'POST',
      url: '/v1/media/images',
      headers: { authorization: `Bearer ${suite.key}`, 'content-type': contentType },
      payload,
    });
    assert.equal(viaOther.statusCode, 201, viaOther.body);
    const second: Image = viaOther.json();
    const fromFirst = await fetchFile(suite.t, second.path);
    assert.equal(fromFirst.statusCode, 200);
    assert.equal(fromFirst.rawPayload.length, second.bytes);
  });

  it('removes the object when the image is deleted', async () => {
    const image: Image = (await upload(suite.t, suite.key, await uniqueJpeg())).json();
    assert.ok(await s3.object(objectKey(image)));
    assert.equal((await deleteImage(suite.t, suite.key, image.id)).statusCode, 204);
    assert.equal(await s3.object(objectKey(image)), null);
    assertError(await fetchFile(suite.t, image.path), 'not_found');
    assertError(await suite.other.app.inject({ method: 'GET', url: image.path }), 'not_found');
    assert.deepEqual(
      await suite.t.ctx.db.selectFrom('media_deletions').selectAll().execute(),
      [],
      'no removal is left owed',
    );
  });

  it('answers 500 internal_error (retryable) and stores nothing while the store is down', async () => {
    const rowsBefore = await imageRows();
    const usedBefore = (await suite.t.request({ method: 'GET', url: '/v1/me', key: suite.key })).json().quotas
      .images_per_day.used;
    const keysBefore = await s3.keys();
    await s3.stop();
    try {
      assertError(await upload(suite.t, suite.key, await uniqueJpeg()), 'internal_error');
    } finally {
      await s3.start();
    }
    assert.equal(await imageRows(), rowsBefore, 'no image row');
    assert.equal(
      (await suite.t.request({ method: 'GET', url: '/v1/me', key: suite.key })).json().quotas.images_per_day.used,
      usedBefore,
      'no quota taken',
    );
    assert.deepEqual(await s3.keys(), keysBefore, 'no object');
    // The same upload succeeds once the store is back.
    assert.equal((await upload(suite.t, suite.key, await uniqueJpeg())).statusCode, 201);
  });

  it('restores the image when the store is down at deletion; the delete succeeds once it is back', async () => {
    const image: Image = (await upload(suite.t, suite.key, await uniqueJpeg())).json();
    await s3.stop();
    try {
      assertError(await deleteImage(suite.t, suite.key, image.id), 'internal_error');
    } finally {
      await s3.start();
    }
    const row = await suite.t.ctx.db
      .selectFrom('images')
      .select('deleted_at')
      .where('id', '=', image.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.deleted_at, null, 'the image is live again');
    assert.deepEqual(await suite.t.ctx.db.selectFrom('media_deletions').selectAll().execute(), []);
    const served = await fetchFile(suite.t, image.path);
    assert.equal(served.statusCode, 200);
    assert.equal(served.rawPayload.length, image.bytes);
    assert.equal((await deleteImage(suite.t, suite.key, image.id)).statusCode, 204);
    assert.equal(await s3.object(objectKey(image)), null);
  });

  it('housekeeping removes objects no image accounts for once an hour old, and only the service’s own keys', async () => {
    const live: Image = (await upload(suite.t, suite.key, await uniqueJpeg())).json();
    const orphanKey = `${prefix}${suite.store.handle}/cccccccccccccccccccccccc.jpg`;
    const foreignKey = `${prefix}${suite.store.handle}/backup.tar`;
    const outsideKey = `elsewhere/${suite.store.handle}/dddddddddddddddddddddddd.jpg`;
    for (const k of [orphanKey, foreignKey, outsideKey]) await s3.putObject(k, Buffer.from('x'));
    // Objects carry the server's real time; the injected clock is moved relative to it.
    suite.t.clock.set(Date.now() + 30 * 60_000);
    let pass = await suite.t.ctx.housekeeping.runPass();
    assert.equal(
      pass.ran && pass.removed.orphaned_media_objects,
      0,
      'younger than an hour: may be an upload in progress',
    );
    suite.t.clock.set(Date.now() + 2 * 60 * 60_000);
    pass = await suite.t.ctx.housekeeping.runPass();
    assert.equal(pass.ran && pass.removed.orphaned_media_objects, 1);
    assert.equal(await s3.object(orphanKey), null);
    assert.ok(await s3.object(foreignKey), 'a key the service did not write stays');
    assert.ok(await s3.object(outsideKey), 'a key outside S3_PREFIX stays');
    assert.ok(await s3.object(objectKey(live)), 'a live image stays');
  });
});

describe('media on a store that accepts connections and never answers', () => {
  let t: TestApp;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  before(async () => {
    silent = await startSilentServer();
    t = await startTestApp(sqlite, {
      ...s3.env,
      S3_ENDPOINT: silent.endpoint,
      S3_REQUEST_TIMEOUT_MS: '300',
      S3_CONNECT_TIMEOUT_MS: '300',
    });
  });
  after(async () => {
    await t?.close();
    await silent?.close();
  });

  it('answers the upload 500 internal_error within the configured timeouts and stores nothing', async () => {
    const { store, key } = await t.tenant();
    const started = Date.now();
    assertError(await upload(t, key, await uniqueJpeg()), 'internal_error');
    // Three attempts of 300 ms each plus the SDK's back-off between them; far below a hang.
    assert.ok(Date.now() - started < 10_000, `answered after ${Date.now() - started} ms`);
    assert.equal(
      (await t.ctx.db.selectFrom('images').select('id').where('store_id', '=', store.id).execute()).length,
      0,
    );
    await assert.rejects(t.ctx.media.files.check(), 'readiness reports the store as failing');
  });
});
