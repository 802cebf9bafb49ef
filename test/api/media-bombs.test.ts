// Images that are tiny on the wire but costly to process, or that declare a size the decoder
// would not report: refused with 413 image_too_large before the work is done, on both engines.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertError } from '../helpers/assertions.js';
import { GREEN, RED, animatedImage, gifBomb, gifScreenDeclaring } from '../helpers/image-fixtures.js';
import { assertImageObject, upload } from './media-support.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('costly and oversized-by-header images', { tenant: false }, (suite) => {
  const filesOf = (handle: string): string[] => {
    try {
      return readdirSync(join(suite.t.config.mediaDir, handle));
    } catch {
      return [];
    }
  };
  const imagesUsedToday = async (key: string) =>
    (await suite.t.request({ method: 'GET', url: '/v1/me', key })).json().quotas.images_per_day.used;

  it('refuses a GIF whose header declares a canvas above image_max_pixels, whatever its frame size', async () => {
    const { store, key } = await suite.t.tenant();
    const screen = gifScreenDeclaring(60_000, 60_000);
    assertError(await upload(suite.t, key, screen), 'image_too_large', [
      { field: 'file', issue: 'image is 60000x60000 pixels, the limit is 40000000 pixels' },
    ]);
    // A frame reaching far past a small screen enlarges the canvas the decoder composes on.
    const wideFrame = gifScreenDeclaring(10, 10, { left: 0, top: 0, width: 65_535, height: 1_000 });
    assertError(await upload(suite.t, key, wideFrame), 'image_too_large', [
      { field: 'file', issue: 'image is 65535x1000 pixels, the limit is 40000000 pixels' },
    ]);
    assert.deepEqual(filesOf(store.handle), []);
    assert.equal(await imagesUsedToday(key), 0);
    // A plain small GIF is still accepted.
    assertImageObject(await upload(suite.t, key, gifScreenDeclaring(8, 8)), 201, {
      contentType: 'image/gif',
      width: 8,
      height: 8,
      handle: store.handle,
    });
  });

  it('refuses an animation whose frames x canvas exceed the per-animation work bound, before decoding', async () => {
    const { store, key } = await suite.t.tenant();
    const bomb = gifBomb(700, 700, 199);
    assert.ok(bomb.length < 5_000, `the bomb is ${bomb.length} bytes`);
    // Within every store limit (frames 199 <= 200, 97,510,000 <= 100,000,000 pixels) ...
    const started = process.hrtime.bigint();
    const res = await upload(suite.t, key, bomb);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // ... but not within what the server processes for one animation.
    assertError(res, 'image_too_large', [
      {
        field: 'file',
        issue:
          'animation has 97510000 pixels over all frames (199 frames of 700x700), more than the 20000000 this server processes per animation',
      },
    ]);
    assert.ok(elapsedMs < 1_000, `refused from the header, not after decoding (${Math.round(elapsedMs)} ms)`);
    assert.deepEqual(filesOf(store.handle), []);
    assert.equal(await imagesUsedToday(key), 0);
    // The bound holds whatever the store allows.
    const generous = await suite.t.createStore({ media: true, changes: { image_max_total_pixels: 1_000_000_000 } });
    const generousKey = await suite.t.issueKey(generous, ['write_media', 'read_blog']);
    assertError(await upload(suite.t, generousKey, bomb), 'image_too_large', [
      { field: 'file', issue: /more than the 20000000 this server processes per animation/ },
    ]);
    // An ordinary animation is unaffected.
    const small = await animatedImage('gif', 200, 100, [RED, GREEN, RED, GREEN]);
    assertImageObject(await upload(suite.t, key, small), 201, {
      contentType: 'image/gif',
      width: 200,
      height: 100,
      handle: store.handle,
    });
  });

  it('refuses an image whose processing outlasts the time budget', async () => {
    const { store, key } = await suite.t.tenant();
    const settings = suite.t.ctx.media.settings;
    const saved = { ...settings };
    // Lift the work bound so only the clock can stop this one; one second is a fraction of
    // what re-encoding 199 frames of 700x700 takes.
    settings.maxAnimationPixels = 1_000_000_000;
    settings.processingTimeoutSeconds = 1;
    try {
      assertError(await upload(suite.t, key, gifBomb(700, 700, 199)), 'image_too_large', [
        { field: 'file', issue: 'image took longer than 1 s to process' },
      ]);
    } finally {
      Object.assign(settings, saved);
    }
    assert.deepEqual(filesOf(store.handle), []);
    assert.equal(await imagesUsedToday(key), 0);
  });
});
