// Responsive variants on an S3-compatible object store (a real s3rver on an ephemeral port), on
// both engines: a variant becomes an object beside its image and later requests read it; two
// instances making the same variant at once both answer it and leave one object; deleting the
// image removes the variant objects, and housekeeping removes a variant left by a deleted image.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { secondInstance } from '../helpers/second-instance.js';
import { assertError } from '../helpers/assertions.js';
import { startS3 } from '../helpers/s3-server.js';
import { sweepOrphanFiles, variantName } from '../../src/modules/media/index.js';
import type { Store } from '../../src/modules/stores/index.js';
import { deleteImage } from './media-support.js';
import { getVariant, imageMeta, uploadPhoto, variantsMade } from './media-variants-support.js';

const s3 = await startS3();
after(() => s3.close());

describeEachEngine('image variants on S3-compatible storage', (target) => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let store: Store;
  let key: string;
  const prefix = `variants-${target.name}/`;
  before(async () => {
    t = await startTestApp(target, { ...s3.env, S3_PREFIX: prefix });
    other = await secondInstance(t);
    ({ store, key } = await t.tenant());
  });
  after(async () => {
    await other?.close();
    await t?.close();
  });

  const objectKey = (name: string) => `${prefix}${store.handle}/${name}`;
  const variantKeys = async (image: { basename: string }) =>
    (await s3.keys()).filter((k) => k.startsWith(objectKey(`${image.basename}.w`)));

  it('stores a variant as an object beside its image and serves the next requests from it', async () => {
    const image = await uploadPhoto(t, key, 1200, 800);
    const before = await variantsMade(t);
    const first = await getVariant(t, image.path, 'w=640', { accept: 'image/webp' });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['content-type'], 'image/webp');
    assert.equal(first.headers.vary, 'Accept');
    assert.deepEqual(await imageMeta(first.rawPayload), {
      format: 'webp',
      compression: undefined,
      width: 640,
      height: 427,
    });
    const object = await s3.object(objectKey(variantName(image.basename, 640, 'webp')));
    assert.ok(object?.equals(first.rawPayload), 'the object holds the bytes answered');
    const next = await getVariant(t, image.path, 'w=640', { accept: 'image/webp' });
    assert.ok(next.rawPayload.equals(first.rawPayload));
    const notModified = await getVariant(t, image.path, 'w=640', {
      accept: 'image/webp',
      'if-none-match': String(first.headers.etag),
    });
    assert.equal(notModified.statusCode, 304);
    assert.equal(await variantsMade(t), before + 1, 'made once');
    // Another instance reads the stored object without making it again.
    const otherBefore = await variantsMade(other);
    const fromOther = await getVariant(other, image.path, 'w=640', { accept: 'image/webp' });
    assert.ok(fromOther.rawPayload.equals(first.rawPayload));
    assert.equal(await variantsMade(other), otherBefore);
  });

  it('lets two instances make the same variant at once: both answer it, one object stays', async () => {
    const image = await uploadPhoto(t, key, 1000, 1000);
    const [a, b] = await Promise.all([
      getVariant(t, image.path, 'w=320', { accept: 'image/avif' }),
      getVariant(other, image.path, 'w=320', { accept: 'image/avif' }),
    ]);
    for (const res of [a, b]) {
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(await imageMeta(res.rawPayload), {
        format: 'heif',
        compression: 'av1',
        width: 320,
        height: 320,
      });
    }
    assert.equal(a.headers.etag, b.headers.etag);
    assert.deepEqual(await variantKeys(image), [objectKey(variantName(image.basename, 320, 'avif'))]);
  });

  it('removes the variant objects when the image is deleted', async () => {
    const image = await uploadPhoto(t, key);
    for (const [query, accept] of [
      ['w=320', 'image/webp'],
      ['w=640', '*/*'],
      ['w=1920', 'image/webp'],
    ])
      assert.equal((await getVariant(t, image.path, query, { accept })).statusCode, 200);
    assert.equal((await variantKeys(image)).length, 3);
    assert.equal((await deleteImage(t, key, image.id)).statusCode, 204);
    assert.deepEqual(await variantKeys(image), []);
    assert.equal(await s3.object(objectKey(image.basename)), null);
    assertError(await getVariant(t, image.path, 'w=320'), 'not_found');
  });

  it('housekeeping removes a variant object of a deleted image and keeps those of live images', async () => {
    const [live, gone] = [await uploadPhoto(t, key), await uploadPhoto(t, key)];
    assert.equal((await getVariant(t, live.path, 'w=960')).statusCode, 200);
    assert.equal((await deleteImage(t, key, gone.id)).statusCode, 204);
    await s3.putObject(objectKey(variantName(gone.basename, 960, 'jpeg')), Buffer.from('left behind'));
    const cutoff = Math.max(Date.now(), t.clock.now().getTime()) + 60_000;
    let position: string | null = null;
    do {
      ({ next: position } = await sweepOrphanFiles(t.ctx.db, t.ctx.media.files, cutoff, position, 50));
    } while (position !== null);
    assert.deepEqual(await variantKeys(gone), []);
    assert.deepEqual(await variantKeys(live), [objectKey(variantName(live.basename, 960, 'jpeg'))]);
    assert.ok(await s3.object(objectKey(live.basename)));
  });
});
