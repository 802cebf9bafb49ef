// POST /v1/media/images: what is stored (read back through the public address) and how
// malformed requests are refused. Both engines, real keys, whole error envelopes.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { readExif } from '../helpers/exif.js';
import {
  BLUE,
  GREEN,
  RED,
  YELLOW,
  animatedImage,
  closeTo,
  frameColour,
  gifDeclaring,
  pngDeclaring,
  regionColour,
  solidImage,
  twoToneImage,
} from '../helpers/image-fixtures.js';
import type { Store } from '../../src/modules/stores/index.js';
import { assertImageObject, metadataOf, multipartBody, storedBytes, upload, uniqueJpeg } from './media-support.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const GPS_EXIF = {
  IFD0: { Copyright: 'Store photographer', Make: 'ExampleCam' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '51/1 30/1 3230/100',
    GPSLongitudeRef: 'W',
    GPSLongitude: '0/1 7/1 4366/100',
  },
};

describeTenantApp('POST /v1/media/images: processing', (suite) => {
  it('stores a JPEG without EXIF (GPS included) but with its ICC profile', async () => {
    const input = await solidImage(64, 48).jpeg().withIccProfile('p3').withExif(GPS_EXIF).toBuffer();
    const before = await metadataOf(input);
    assert.ok(before.exif && before.icc && readExif(before.exif).gpsTags.length > 0, 'input carries GPS EXIF and ICC');

    const image = assertImageObject(await upload(suite.t, suite.key, input, { filename: 'holiday.jpg' }), 201, {
      contentType: 'image/jpeg',
      width: 64,
      height: 48,
      handle: suite.store.handle,
    });
    const stored = await storedBytes(suite.t, image);
    assert.equal(stored.length, image.bytes);
    const after = await metadataOf(stored);
    assert.equal(after.format, 'jpeg');
    assert.equal(after.exif, undefined);
    assert.ok(after.icc?.equals(before.icc), 'the original ICC profile is kept');
  });

  it('applies the EXIF orientation: a rotated portrait is stored upright', async () => {
    const input = await twoToneImage(60, 20, RED, BLUE)
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = assertImageObject(await upload(suite.t, suite.key, input), 201, {
      contentType: 'image/jpeg',
      width: 20,
      height: 60,
      handle: suite.store.handle,
    });
    const stored = await storedBytes(suite.t, image);
    const after = await metadataOf(stored);
    assert.deepEqual([after.width, after.height, after.orientation], [20, 60, undefined]);
    assert.ok(closeTo(await regionColour(stored, { left: 0, top: 0, width: 20, height: 25 }), RED), 'red on top');
    assert.ok(closeTo(await regionColour(stored, { left: 0, top: 35, width: 20, height: 25 }), BLUE), 'blue below');
  });

  it('stores a PNG as PNG with its ICC profile', async () => {
    const input = await solidImage(40, 30, GREEN).png().withIccProfile('p3').toBuffer();
    const image = assertImageObject(await upload(suite.t, suite.key, input), 201, {
      contentType: 'image/png',
      width: 40,
      height: 30,
      handle: suite.store.handle,
    });
    const after = await metadataOf(await storedBytes(suite.t, image));
    assert.equal(after.format, 'png');
    assert.ok(after.icc, 'ICC kept');
  });

  it('keeps every frame of an animated GIF, without a colour profile', async () => {
    const colours = [RED, GREEN, BLUE, YELLOW];
    const input = await animatedImage('gif', 60, 20, colours, { loop: 2 });
    const image = assertImageObject(await upload(suite.t, suite.key, input), 201, {
      contentType: 'image/gif',
      width: 60,
      height: 20,
      handle: suite.store.handle,
    });
    const stored = await storedBytes(suite.t, image);
    const after = await metadataOf(stored);
    assert.deepEqual([after.format, after.pages, after.loop, after.icc], ['gif', 4, 2, undefined]);
    for (const [page, colour] of colours.entries())
      assert.ok(closeTo(await frameColour(stored, page), colour), `frame ${page}`);
  });

  it('stores a WebP as WebP without EXIF', async () => {
    const input = await solidImage(40, 30, BLUE).webp().withIccProfile('p3').withExif(GPS_EXIF).toBuffer();
    const image = assertImageObject(await upload(suite.t, suite.key, input), 201, {
      contentType: 'image/webp',
      width: 40,
      height: 30,
      handle: suite.store.handle,
    });
    const after = await metadataOf(await storedBytes(suite.t, image));
    assert.deepEqual([after.format, after.exif], ['webp', undefined]);
    assert.ok(after.icc, 'ICC kept');
  });

  it('decides the format by content: a PNG named photo.jpg is stored as .png / image/png', async () => {
    const input = await solidImage(16, 16, YELLOW).png().toBuffer();
    const image = assertImageObject(
      await upload(suite.t, suite.key, input, { filename: 'photo.jpg', contentType: 'image/jpeg' }),
      201,
      {
        contentType: 'image/png',
        width: 16,
        height: 16,
        handle: suite.store.handle,
      },
    );
    assert.ok(image.basename.endsWith('.png'));
    assert.equal((await metadataOf(await storedBytes(suite.t, image))).format, 'png');
  });

  it('scales images wider than limits.image_max_width down, never up', async () => {
    const narrow = await suite.t.createStore({ changes: { image_max_width: 100 } });
    const narrowKey = await suite.t.issueKey(narrow, ['write_media']);
    const wide = assertImageObject(await upload(suite.t, narrowKey, await solidImage(300, 150).png().toBuffer()), 201, {
      contentType: 'image/png',
      width: 100,
      height: 50,
      handle: narrow.handle,
    });
    const wideMeta = await metadataOf(await storedBytes(suite.t, wide));
    assert.deepEqual([wideMeta.width, wideMeta.height], [100, 50]);
    const gif = assertImageObject(
      await upload(suite.t, narrowKey, await animatedImage('gif', 300, 100, [RED, GREEN])),
      201,
      { contentType: 'image/gif', width: 100, height: 33, handle: narrow.handle },
    );
    assert.equal((await metadataOf(await storedBytes(suite.t, gif))).pages, 2);
    const small = assertImageObject(await upload(suite.t, narrowKey, await solidImage(60, 40).jpeg().toBuffer()), 201, {
      contentType: 'image/jpeg',
      width: 60,
      height: 40,
      handle: narrow.handle,
    });
    assert.equal((await metadataOf(await storedBytes(suite.t, small))).width, 60);
  });

  it('refuses SVG and unknown content with 415', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    assertError(
      await upload(suite.t, suite.key, svg, { filename: 'logo.png', contentType: 'image/png' }),
      'unsupported_media_type',
      [{ field: 'file', issue: 'SVG images are not accepted' }],
    );
    assertError(
      await upload(suite.t, suite.key, randomBytes(4096), { filename: 'photo.jpg' }),
      'unsupported_media_type',
      [{ field: 'file', issue: 'only JPEG, PNG, GIF and WebP images are accepted' }],
    );
    const tiff = await solidImage(16, 16).tiff().toBuffer();
    assertError(await upload(suite.t, suite.key, tiff), 'unsupported_media_type', [
      { field: 'file', issue: 'only JPEG, PNG, GIF and WebP images are accepted' },
    ]);
  });

  it('refuses a truncated JPEG as unreadable (422, field file)', async () => {
    const jpeg = await twoToneImage(200, 150).jpeg().toBuffer();
    assertError(
      await upload(suite.t, suite.key, jpeg.subarray(0, Math.floor(jpeg.length * 0.6))),
      'validation_failed',
      [{ field: 'file', issue: /^is not a readable image: / }],
    );
  });

  it('refuses by declared header size, frames and total pixels with 413', async () => {
    assertError(await upload(suite.t, suite.key, pngDeclaring(50_000, 50_000)), 'image_too_large', [
      { field: 'file', issue: /50000x50000 pixels/ },
    ]);
    assertError(await upload(suite.t, suite.key, gifDeclaring(50_000, 50_000)), 'image_too_large', [
      { field: 'file', issue: /50000x50000 pixels/ },
    ]);
    const strict = await suite.t.createStore({ changes: { image_max_gif_frames: 3, image_max_total_pixels: 5000 } });
    const strictKey = await suite.t.issueKey(strict, ['write_media']);
    assertError(
      await upload(suite.t, strictKey, await animatedImage('gif', 20, 10, [RED, GREEN, BLUE, YELLOW])),
      'image_too_large',
      [{ field: 'file', issue: 'animation has 4 frames, the limit is 3' }],
    );
    assertError(
      await upload(suite.t, strictKey, await animatedImage('gif', 60, 30, [RED, GREEN, BLUE])),
      'image_too_large',
      [{ field: 'file', issue: 'animation has 5400 pixels over all frames, the limit is 5000' }],
    );
  });

  it('refuses a file over limits.image_max_bytes with 413, and accepts one exactly at the limit', async () => {
    const input = await uniqueJpeg();
    const tight = await suite.t.createStore({ changes: { image_max_bytes: input.length - 1 } });
    const tightKey = await suite.t.issueKey(tight, ['write_media']);
    assertError(await upload(suite.t, tightKey, input), 'image_too_large', [
      { field: 'file', issue: `is larger than ${input.length - 1} bytes (limits.image_max_bytes)` },
    ]);
    await suite.t.ctx.stores.update(tight.handle, { image_max_bytes: input.length });
    assert.equal((await upload(suite.t, tightKey, input)).statusCode, 201);
  });
});

describeEachEngine('POST /v1/media/images: request shape', (target) => {
  let t: TestApp;
  let store: Store;
  let key: string;
  let jpeg: Buffer;
  before(async () => {
    t = await startTestApp(target);
    ({ store, key } = await t.tenant());
    jpeg = await uniqueJpeg();
  });
  after(() => t?.close());

  const send = (payload: Buffer | string, contentType?: string) =>
    t.request({
      method: 'POST',
      url: '/v1/media/images',
      key,
      payload,
      headers: contentType ? { 'content-type': contentType } : {},
    });

  it('needs the form field to be named file', async () => {
    assertError(await upload(t, key, jpeg, { field: 'image' }), 'validation_failed', [
      { field: 'file', issue: 'is required: send the image in the form field named "file"' },
    ]);
  });

  it('needs a file at all', async () => {
    const empty = multipartBody([]);
    assertError(await send(empty.payload, empty.contentType), 'validation_failed', [
      { field: 'file', issue: 'is required' },
    ]);
    const asText = multipartBody([{ name: 'file', data: 'not a file' }]);
    assertError(await send(asText.payload, asText.contentType), 'validation_failed', [
      { field: 'file', issue: 'must be sent as a file part (with a filename), not as text' },
    ]);
    assertError(await upload(t, key, Buffer.alloc(0)), 'validation_failed', [{ field: 'file', issue: 'is empty' }]);
  });

  it('refuses other form fields and a second file', async () => {
    const extra = multipartBody([
      { name: 'alt', data: 'a cat' },
      { name: 'file', filename: 'a.jpg', data: jpeg },
    ]);
    assertError(await send(extra.payload, extra.contentType), 'validation_failed', [
      { field: 'alt', issue: 'is not a recognised field' },
    ]);
    const two = multipartBody([
      { name: 'file', filename: 'a.jpg', data: jpeg },
      { name: 'file', filename: 'b.jpg', data: jpeg },
    ]);
    assertError(await send(two.payload, two.contentType), 'validation_failed', [
      { field: 'file', issue: 'must be sent once: one image per request' },
    ]);
  });

  it('refuses a JSON body, another content type or no body with 422 naming Content-Type', async () => {
    const contentType = [{ field: 'Content-Type', issue: 'must be multipart/form-data' }];
    assertError(
      await t.request({ method: 'POST', url: '/v1/media/images', key, body: { file: 'x' } }),
      'validation_failed',
      contentType,
    );
    assertError(await send('{not json', 'application/json'), 'validation_failed', contentType);
    assertError(await send('file=x', 'application/x-www-form-urlencoded'), 'validation_failed', contentType);
    assertError(await send(jpeg, 'image/jpeg'), 'validation_failed', contentType);
    assertError(await t.request({ method: 'POST', url: '/v1/media/images', key }), 'validation_failed', contentType);
    assertError(await send(multipartBody([]).payload, 'multipart/form-data'), 'validation_failed', [
      { field: 'Content-Type', issue: 'must be multipart/form-data with a boundary' },
    ]);
  });

  it('refuses a malformed multipart body', async () => {
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.jpg', data: jpeg }]);
    assertError(await send(payload.subarray(0, payload.length - 40), contentType), 'validation_failed', [
      { field: 'body', issue: 'is not valid multipart/form-data' },
    ]);
  });

  it('leaves other endpoints refusing multipart bodies', async () => {
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.jpg', data: jpeg }]);
    const res = await t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key,
      payload,
      headers: { 'content-type': contentType, 'idempotency-key': 'k1' },
    });
    assertError(res, 'validation_failed', [{ field: 'Content-Type', issue: 'must be application/json' }]);
  });

  it('answers 404 feature_unavailable when media is off, before looking at the body', async () => {
    const off = await t.tenant({ media: false });
    assertError(await upload(t, off.key, jpeg), 'feature_unavailable');
    assertError(
      await t.request({ method: 'POST', url: '/v1/media/images', key: off.key, body: {} }),
      'feature_unavailable',
    );
    assertError(
      await t.request({ method: 'DELETE', url: '/v1/media/images/img_aaaaaaaaaaaaaaaaaaaaaaaa', key: off.key }),
      'feature_unavailable',
    );
  });

  it('answers 403 without write_media, and 401 without a key', async () => {
    const readOnly = await t.issueKey(store, ['read_blog', 'write_blog']);
    assertError(await upload(t, readOnly, jpeg), 'insufficient_scope', [
      { field: 'scope', issue: 'required: write_media' },
    ]);
    assertError(
      await t.request({ method: 'DELETE', url: '/v1/media/images/img_aaaaaaaaaaaaaaaaaaaaaaaa', key: readOnly }),
      'insufficient_scope',
      [{ field: 'scope', issue: 'required: write_media' }],
    );
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.jpg', data: jpeg }]);
    assertError(
      await t.request({ method: 'POST', url: '/v1/media/images', payload, headers: { 'content-type': contentType } }),
      'unauthorized',
    );
  });

  it('is described in the OpenAPI document as multipart; the file route is not', async () => {
    const doc = (await t.request({ method: 'GET', url: '/v1/openapi.json', key })).json();
    const post = doc.paths['/v1/media/images'].post;
    assert.deepEqual(Object.keys(post.requestBody.content), ['multipart/form-data']);
    assert.deepEqual(Object.keys(post.responses).sort(), [
      '200',
      '201',
      '401',
      '403',
      '404',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    assert.deepEqual(post.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Image' });
    assert.deepEqual(doc.components.schemas.Image.required, [
      'id',
      'basename',
      'path',
      'url',
      'content_type',
      'width',
      'height',
      'bytes',
    ]);
    assert.ok(doc.paths['/v1/media/images/{id}'].delete.responses['409']);
    assert.equal(
      Object.keys(doc.paths).some((p) => p.startsWith('/media')),
      false,
    );
  });
});
