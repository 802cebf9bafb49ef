// Responsive variants through HTTP on both engines, local media folder: GET /media/…?w=N answers
// the image at each offered width (never upscaled) in the format Accept earns, with Vary: Accept
// and an ETag of its own; a variant is made once and then read from the store; other widths are
// 422; deleting the image (or housekeeping after it) removes its variants; variant work takes
// the same processing turns as uploads.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { assertError } from '../helpers/assertions.js';
import { animatedImage, BLUE, GREEN, RED } from '../helpers/image-fixtures.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { settled } from '../helpers/settled.js';
import { describeTenantApp, type TenantSuite } from '../helpers/tenant-app.js';
import { sweepOrphanFiles, variantName, VARIANT_WIDTHS } from '../../src/modules/media/index.js';
import { deleteImage, fetchFile, uniqueJpeg, upload } from './media-support.js';
import { getVariant, imageMeta, uploadPhoto, variantsMade, type StoredImage } from './media-variants-support.js';

const WAIT_SECONDS = 5;
const WIDTH_ISSUE = 'must be one of 320, 640, 960, 1280, 1920';

describeTenantApp(
  'image variants',
  { env: { MEDIA_PROCESSING_CONCURRENCY: '1', MEDIA_PROCESSING_WAIT_SECONDS: String(WAIT_SECONDS) } },
  (suite: TenantSuite) => {
    const stored = (image: StoredImage, name: string) => join(suite.t.config.mediaDir, suite.store.handle, name);
    const variantFiles = (image: StoredImage) =>
      readdirSync(join(suite.t.config.mediaDir, suite.store.handle)).filter((n) => n.startsWith(`${image.basename}.w`));

    it('answers each offered width scaled to it in the image format, never above the image width', async () => {
      const image = await uploadPhoto(suite.t, suite.key, 1500, 1000);
      const original = await fetchFile(suite.t, image.path);
      for (const w of VARIANT_WIDTHS) {
        const res = await getVariant(suite.t, image.path, `w=${w}`);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers.vary, 'Accept');
        assert.equal(res.headers['content-type'], 'image/jpeg');
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(res.headers['content-length'], String(res.rawPayload.length));
        const meta = await imageMeta(res.rawPayload);
        const expected = Math.min(w, image.width);
        assert.deepEqual(meta, {
          format: 'jpeg',
          compression: undefined,
          width: expected,
          height: Math.round((expected * image.height) / image.width),
        });
        if (w >= image.width) {
          // Its own width in its own format is the image itself.
          assert.ok(res.rawPayload.equals(original.rawPayload));
          assert.equal(res.headers.etag, original.headers.etag);
        } else {
          assert.notEqual(res.headers.etag, original.headers.etag);
          assert.ok(res.rawPayload.length < original.rawPayload.length, `w=${w} is smaller than the image`);
        }
      }
    });

    it('never upscales: an image narrower than the width is answered at its own width, also in WebP', async () => {
      const small = await upload(suite.t, suite.key, await uniqueJpeg());
      const image: StoredImage = small.json();
      const plain = await getVariant(suite.t, image.path, 'w=320');
      assert.equal(plain.statusCode, 200);
      assert.deepEqual(await imageMeta(plain.rawPayload), {
        format: 'jpeg',
        compression: undefined,
        width: 16,
        height: 16,
      });
      const webp = await getVariant(suite.t, image.path, 'w=1920', { accept: 'image/webp' });
      assert.equal(webp.headers['content-type'], 'image/webp');
      assert.deepEqual(await imageMeta(webp.rawPayload), {
        format: 'webp',
        compression: undefined,
        width: 16,
        height: 16,
      });
      // Every width at or above the image's own shares one file.
      const again = await getVariant(suite.t, image.path, 'w=640', { accept: 'image/webp' });
      assert.equal(again.headers.etag, webp.headers.etag);
      assert.deepEqual(variantFiles(image), [variantName(image.basename, 16, 'webp')]);
    });

    it('negotiates WebP before AVIF from explicit Accept types, with Vary: Accept and an ETag per format', async () => {
      const image = await uploadPhoto(suite.t, suite.key, 800, 600);
      const cases: Array<[string | undefined, string, string, string | undefined]> = [
        [undefined, 'image/jpeg', 'jpeg', undefined],
        ['*/*', 'image/jpeg', 'jpeg', undefined],
        ['image/*', 'image/jpeg', 'jpeg', undefined],
        ['image/webp', 'image/webp', 'webp', undefined],
        ['image/avif,image/webp,image/apng,image/*,*/*;q=0.8', 'image/webp', 'webp', undefined],
        ['image/avif', 'image/avif', 'heif', 'av1'],
        ['image/avif, image/webp;q=0', 'image/avif', 'heif', 'av1'],
        ['image/webp;q=0, image/avif;q=0', 'image/jpeg', 'jpeg', undefined],
      ];
      const etags = new Map<string, string>();
      for (const [accept, contentType, format, compression] of cases) {
        const res = await getVariant(suite.t, image.path, 'w=320', accept ? { accept } : {});
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], contentType, `Accept: ${accept}`);
        assert.equal(res.headers.vary, 'Accept');
        assert.deepEqual(await imageMeta(res.rawPayload), { format, compression, width: 320, height: 240 });
        const etag = String(res.headers.etag);
        if (etags.has(contentType)) assert.equal(etag, etags.get(contentType), 'one ETag per variant');
        etags.set(contentType, etag);
      }
      const other = await getVariant(suite.t, image.path, 'w=640', { accept: 'image/webp' });
      assert.equal(new Set([...etags.values(), String(other.headers.etag)]).size, 4, 'distinct per width and format');
    });

    it('keeps an animation animated: WebP or GIF variants with every frame, never AVIF', async () => {
      const gif = await animatedImage('gif', 400, 300, [RED, GREEN, BLUE]);
      const res = await upload(suite.t, suite.key, gif);
      assert.equal(res.statusCode, 201, res.body);
      const image: StoredImage = res.json();
      for (const [accept, format] of [
        ['image/avif,image/webp', 'webp'],
        ['image/avif', 'gif'],
        ['*/*', 'gif'],
      ]) {
        const variant = await getVariant(suite.t, image.path, 'w=320', { accept });
        assert.equal(variant.statusCode, 200, variant.body);
        const meta = await sharp(variant.rawPayload, { animated: true }).metadata();
        assert.deepEqual([meta.format, meta.width, meta.pageHeight, meta.pages], [format, 320, 240, 3], accept);
      }
    });

    it('makes a variant once: the first request stores it, the next ones read that file', async () => {
      const image = await uploadPhoto(suite.t, suite.key);
      const name = variantName(image.basename, 640, 'webp');
      assert.equal(existsSync(stored(image, name)), false);
      const before = await variantsMade(suite.t);
      const first = await getVariant(suite.t, image.path, 'w=640', { accept: 'image/webp' });
      assert.equal(first.statusCode, 200);
      assert.equal(await variantsMade(suite.t), before + 1);
      assert.ok(existsSync(stored(image, name)), 'the variant is kept in the media folder');
      for (let i = 0; i < 3; i++) {
        const next = await getVariant(suite.t, image.path, 'w=640', { accept: 'image/webp' });
        assert.equal(next.statusCode, 200);
        assert.ok(next.rawPayload.equals(first.rawPayload));
        assert.equal(next.headers.etag, first.headers.etag);
      }
      assert.equal(await variantsMade(suite.t), before + 1, 'nothing was encoded again');
      const head = await getVariant(suite.t, image.path, 'w=640', { accept: 'image/webp' }, 'HEAD');
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-length'], String(first.rawPayload.length));
      assert.equal(head.rawPayload.length, 0);
    });

    it('makes a variant asked for by many requests at once only once', async () => {
      const image = await uploadPhoto(suite.t, suite.key);
      const before = await variantsMade(suite.t);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => getVariant(suite.t, image.path, 'w=960', { accept: 'image/webp' })),
      );
      for (const res of answers) {
        assert.equal(res.statusCode, 200);
        assert.ok(res.rawPayload.equals(answers[0].rawPayload));
      }
      assert.equal(await variantsMade(suite.t), before + 1);
    });

    it('answers 304 to each variant’s own ETag, and 200 to another’s', async () => {
      const image = await uploadPhoto(suite.t, suite.key, 1000, 500);
      const a = await getVariant(suite.t, image.path, 'w=320', { accept: 'image/webp' });
      const b = await getVariant(suite.t, image.path, 'w=640', { accept: 'image/webp' });
      const c = await getVariant(suite.t, image.path, 'w=640');
      for (const [res, accept, query] of [
        [a, 'image/webp', 'w=320'],
        [b, 'image/webp', 'w=640'],
        [c, '*/*', 'w=640'],
      ] as const) {
        const notModified = await getVariant(suite.t, image.path, query, {
          accept,
          'if-none-match': String(res.headers.etag),
        });
        assert.equal(notModified.statusCode, 304);
        assert.equal(notModified.rawPayload.length, 0);
        assert.equal(notModified.headers.vary, 'Accept');
        assert.equal(notModified.headers.etag, res.headers.etag);
      }
      const mismatch = await getVariant(suite.t, image.path, 'w=640', {
        accept: 'image/webp',
        'if-none-match': String(a.headers.etag),
      });
      assert.equal(mismatch.statusCode, 200);
      const original = await fetchFile(suite.t, image.path);
      const byOriginalTag = await getVariant(suite.t, image.path, 'w=320', {
        'if-none-match': String(original.headers.etag),
      });
      assert.equal(byOriginalTag.statusCode, 200, "the image's own ETag does not match a variant");
    });

    it('refuses any other width with 422 validation_failed naming w, before looking the image up', async () => {
      const image = await uploadPhoto(suite.t, suite.key, 400, 300);
      for (const query of ['w=100', 'w=641', 'w=0640', 'w=640.0', 'w=', 'w=abc', 'w=-320', 'w=640&w=320', 'w=1e3']) {
        const res = await getVariant(suite.t, image.path, query);
        assertError(res, 'validation_failed', [{ field: 'w', issue: WIDTH_ISSUE }]);
        assert.equal(res.headers['cache-control'], 'no-store');
      }
      assertError(
        await getVariant(suite.t, `/media/${suite.store.handle}/aaaaaaaaaaaaaaaaaaaaaaaa.jpg`, 'w=5'),
        'validation_failed',
        [{ field: 'w', issue: WIDTH_ISSUE }],
      );
      assertError(
        await getVariant(suite.t, `/media/${suite.store.handle}/aaaaaaaaaaaaaaaaaaaaaaaa.jpg`, 'w=320'),
        'not_found',
      );
      assertError(await getVariant(suite.t, `/media/nosuchstore/${image.basename}`, 'w=320'), 'not_found');
      // A variant's stored name is not an address of its own.
      const made = await getVariant(suite.t, image.path, 'w=320', { accept: 'image/webp' });
      assert.equal(made.statusCode, 200);
      assertError(
        await fetchFile(suite.t, `/media/${suite.store.handle}/${variantName(image.basename, 320, 'webp')}`),
        'not_found',
      );
    });

    it('removes every variant with its image, and answers 404 for them afterwards', async () => {
      const image = await uploadPhoto(suite.t, suite.key);
      for (const [query, accept] of [
        ['w=320', 'image/webp'],
        ['w=640', 'image/avif'],
        ['w=960', '*/*'],
        ['w=1920', 'image/webp'],
      ])
        assert.equal((await getVariant(suite.t, image.path, query, { accept })).statusCode, 200);
      assert.equal(variantFiles(image).length, 4);
      assert.equal((await deleteImage(suite.t, suite.key, image.id)).statusCode, 204);
      assert.deepEqual(variantFiles(image), [], 'no variant is left');
      assert.equal(existsSync(stored(image, image.basename)), false);
      assertError(await getVariant(suite.t, image.path, 'w=320', { accept: 'image/webp' }), 'not_found');
    });

    it('housekeeping removes a variant of a deleted image left in the store, and keeps those of live images', async () => {
      const [live, gone] = [await uploadPhoto(suite.t, suite.key), await uploadPhoto(suite.t, suite.key)];
      assert.equal((await getVariant(suite.t, live.path, 'w=320')).statusCode, 200);
      assert.equal((await deleteImage(suite.t, suite.key, gone.id)).statusCode, 204);
      // As a variant written by another process while the image was being deleted would be.
      const straggler = variantName(gone.basename, 320, 'webp');
      await suite.t.ctx.media.files.put(suite.store.handle, straggler, Buffer.from('RIFF'));
      // Past both the file's time (the file system's clock) and the deletion's (the test clock).
      const cutoff = Math.max(Date.now(), suite.t.clock.now().getTime()) + 60_000;
      let after: string | null = null;
      do {
        ({ next: after } = await sweepOrphanFiles(suite.t.ctx.db, suite.t.ctx.media.files, cutoff, after, 50));
      } while (after !== null);
      assert.deepEqual(variantFiles(gone), []);
      assert.deepEqual(variantFiles(live), [variantName(live.basename, 320, 'jpeg')]);
      assert.ok(existsSync(stored(live, live.basename)));
    });

    it("reads the stored image under the store's current limits: a refused variant answers the image itself, once", async () => {
      const t = suite.t;
      const { store, key } = await t.tenant();
      const image = await uploadPhoto(t, key, 1200, 800);
      const original = await fetchFile(t, image.path);
      // Lowered after the upload: the image no longer fits the pixel limit.
      await t.ctx.stores.update(store.handle, { image_max_pixels: 1200 * 800 - 1 });
      const before = await variantsMade(t);
      for (let i = 0; i < 2; i++) {
        const res = await getVariant(t, image.path, 'w=640', { accept: 'image/webp' });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'image/jpeg');
        assert.equal(res.headers.vary, 'Accept');
        assert.equal(res.headers.etag, original.headers.etag);
        assert.ok(res.rawPayload.equals(original.rawPayload), 'the image itself');
      }
      assert.equal(await variantsMade(t), before + 1, 'refused once, then remembered');
      const dir = join(t.config.mediaDir, store.handle);
      assert.deepEqual(
        readdirSync(dir).filter((n) => n.startsWith(`${image.basename}.w`)),
        [],
        'nothing stored',
      );
    });

    it('makes variants in the image processing turns: waits for a turn and gets 429 when none comes in time', async () => {
      const image = await uploadPhoto(suite.t, suite.key);
      const timers = manualTimers();
      const saved = suite.t.ctx.media.uploadTimers;
      suite.t.ctx.media.uploadTimers = timers;
      const turns = suite.t.ctx.media.processing;
      const held = await turns.acquire('test', timers);
      try {
        let answered = false;
        const waiting = getVariant(suite.t, image.path, 'w=320', { accept: 'image/webp' }).finally(
          () => (answered = true),
        );
        assert.ok(await settled(() => turns.waiting === 1), 'the variant waits for a turn');
        // A stored file needs no turn: the image itself is served meanwhile.
        assert.equal((await fetchFile(suite.t, image.path)).statusCode, 200);
        timers.tick(WAIT_SECONDS * 1000 - 1);
        assert.equal(await settled(() => answered, 50), false);
        timers.tick(1);
        const res = await waiting;
        assertError(res, 'concurrency_limited');
        assert.equal(res.headers['retry-after'], '1');
        assert.deepEqual(variantFiles(image), [], 'nothing was made');
        // With the turn given back, the same request is answered.
        const queued = getVariant(suite.t, image.path, 'w=320', { accept: 'image/webp' });
        assert.ok(await settled(() => turns.waiting === 1));
        held();
        assert.equal((await queued).statusCode, 200);
      } finally {
        held();
        suite.t.ctx.media.uploadTimers = saved;
      }
    });
  },
);
