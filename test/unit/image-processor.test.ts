import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';

import sharp from 'sharp';

import {
  DEFAULT_IMAGE_LIMITS,
  ImageRejection,
  processImage,
  sniffImageFormat,
  type ImageLimits,
  type ImageRejectionReason,
} from '../../src/modules/media/image-processor.js';
import { readExif } from '../helpers/exif.js';
import { withCpuTime } from '../helpers/cpu-time.js';
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
  type Rgb,
} from '../helpers/image-fixtures.js';

const XMP = [
  '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
  '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>someone</dc:creator></rdf:Description>',
  '</rdf:RDF></x:xmpmeta>',
].join('');

// sharp names the GPS IFD "IFD3" (libvips' exif-ifd3).
const GPS_EXIF = {
  IFD0: { Copyright: 'Store photographer', Make: 'ExampleCam' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '51/1 30/1 3230/100',
    GPSLongitudeRef: 'W',
    GPSLongitude: '0/1 7/1 4366/100',
  },
};
const GPS_LATITUDE_REF_TAG = 1;
const GPS_LATITUDE_TAG = 2;

function limitsWith(overrides: Partial<ImageLimits> = {}): ImageLimits {
  return { ...DEFAULT_IMAGE_LIMITS, ...overrides };
}

async function assertRejected(promise: Promise<unknown>, reason: ImageRejectionReason): Promise<ImageRejection> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof ImageRejection, `expected an ImageRejection, got ${String(caught)}`);
  assert.equal(caught.reason, reason, `wrong reason (detail: ${caught.detail})`);
  return caught;
}

function assertColour(actual: Rgb, expected: Rgb, what: string): void {
  assert.ok(
    closeTo(actual, expected),
    `${what}: expected about ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
  );
}

describe('sniffImageFormat', () => {
  it('recognises the four accepted formats by their magic bytes', async () => {
    const image = solidImage(8, 8);
    assert.equal(sniffImageFormat(await image.clone().jpeg().toBuffer()), 'jpeg');
    assert.equal(sniffImageFormat(await image.clone().png().toBuffer()), 'png');
    assert.equal(sniffImageFormat(await image.clone().gif().toBuffer()), 'gif');
    assert.equal(sniffImageFormat(await image.clone().webp().toBuffer()), 'webp');
  });

  it('only needs the first bytes of the file', async () => {
    const png = await solidImage(8, 8).png().toBuffer();
    assert.equal(sniffImageFormat(png.subarray(0, 16)), 'png');
  });

  it('reports SVG and XML markup as svg', () => {
    const svg = (text: string): Buffer => Buffer.from(text, 'utf8');
    assert.equal(sniffImageFormat(svg('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'svg');
    assert.equal(sniffImageFormat(svg('<?xml version="1.0"?><svg/>')), 'svg');
    assert.equal(sniffImageFormat(svg('\uFEFF \n\t<SVG width="1"></SVG>')), 'svg');
    assert.equal(sniffImageFormat(svg('<!-- generator --><svg><script>alert(1)</script></svg>')), 'svg');
    assert.equal(sniffImageFormat(svg('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "">')), 'svg');
    assert.equal(sniffImageFormat(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<svg/>', 'utf16le')])), 'svg');
  });

  it('returns null for other content', () => {
    assert.equal(sniffImageFormat(Buffer.alloc(0)), null);
    assert.equal(sniffImageFormat(Buffer.from('BM\x36\x00\x00\x00', 'latin1')), null); // BMP
    assert.equal(sniffImageFormat(Buffer.from('II*\x00\x08\x00\x00\x00', 'latin1')), null); // TIFF
    assert.equal(sniffImageFormat(Buffer.from('%PDF-1.7\n', 'latin1')), null);
    assert.equal(sniffImageFormat(Buffer.from('\x00\x00\x00\x1cftypavif', 'latin1')), null);
    assert.equal(sniffImageFormat(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')), null);
    assert.equal(sniffImageFormat(Buffer.from('<html><body>hi</body></html>')), null);
    assert.equal(sniffImageFormat(Buffer.from([0xff, 0xd8])), null); // too short to be a JPEG
  });
});

describe('processImage: metadata', () => {
  it('removes EXIF (GPS included) and XMP from a JPEG but keeps its ICC profile', async () => {
    const input = await solidImage(64, 48).jpeg().withIccProfile('p3').withExif(GPS_EXIF).withXmp(XMP).toBuffer();
    const before = await sharp(input).metadata();
    assert.ok(before.exif && before.xmp && before.icc, 'the generated input must carry EXIF, XMP and ICC');
    const exif = readExif(before.exif);
    assert.ok(
      exif.gpsTags.includes(GPS_LATITUDE_REF_TAG) && exif.gpsTags.includes(GPS_LATITUDE_TAG),
      'input must carry GPS',
    );

    const result = await processImage(input, limitsWith());

    assert.equal(result.format, 'jpeg');
    assert.equal(result.contentType, 'image/jpeg');
    assert.equal(result.extension, 'jpg');
    const after = await sharp(result.data).metadata();
    assert.equal(after.format, 'jpeg');
    assert.equal(after.exif, undefined);
    assert.equal(after.xmp, undefined);
    assert.equal(after.iptc, undefined);
    assert.ok(after.icc, 'ICC profile must be kept');
    assert.ok(after.icc.equals(before.icc), 'the original (P3) profile must be kept, not replaced by sRGB');
    assert.deepEqual([result.width, result.height], [64, 48]);
    assert.equal(result.bytes, result.data.length);
  });

  it('applies EXIF orientation before dropping it (rotated portrait comes out upright)', async () => {
    // Stored as a 60x20 landscape, red on the left: orientation 6 means "turn 90 degrees
    // clockwise to display", so the upright image is 20x60 with red on top.
    const input = await twoToneImage(60, 20, RED, BLUE)
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    assert.equal((await sharp(input).metadata()).orientation, 6);

    const result = await processImage(input, limitsWith());

    assert.deepEqual([result.width, result.height], [20, 60]);
    const after = await sharp(result.data).metadata();
    assert.deepEqual([after.width, after.height], [20, 60]);
    assert.equal(after.orientation, undefined);
    assert.equal(after.exif, undefined);
    assertColour(await regionColour(result.data, { left: 0, top: 0, width: 20, height: 25 }), RED, 'top');
    assertColour(await regionColour(result.data, { left: 0, top: 35, width: 20, height: 25 }), BLUE, 'bottom');
  });

  it('compares maxWidth with the upright width, not the stored one', async () => {
    // Stored 100x300 with orientation 6: upright it is 300x100, wider than 200.
    const input = await solidImage(100, 300).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const result = await processImage(input, limitsWith({ maxWidth: 200 }));
    assert.equal(result.width, 200);
    assert.ok(Math.abs(result.height - 67) <= 1, `height ${result.height}`);
  });

  it('re-encodes a PNG as PNG, keeping ICC and dropping XMP and EXIF', async () => {
    const input = await solidImage(40, 30, GREEN)
      .png()
      .withIccProfile('p3')
      .withXmp(XMP)
      .withExif({ IFD0: { Copyright: 'x' } })
      .toBuffer();
    const before = await sharp(input).metadata();
    assert.ok(before.xmp && before.exif && before.icc, 'the generated input must carry XMP, EXIF and ICC');

    const result = await processImage(input, limitsWith());

    assert.deepEqual([result.format, result.contentType, result.extension], ['png', 'image/png', 'png']);
    const after = await sharp(result.data).metadata();
    assert.equal(after.format, 'png');
    assert.equal(after.xmp, undefined);
    assert.equal(after.exif, undefined);
    assert.ok(after.icc?.equals(before.icc), 'ICC profile must be kept');
    assert.deepEqual([result.width, result.height], [40, 30]);
  });

  it('re-encodes a WebP as WebP, keeping ICC and dropping EXIF (GPS) and XMP', async () => {
    const input = await solidImage(40, 30, BLUE).webp().withIccProfile('p3').withExif(GPS_EXIF).withXmp(XMP).toBuffer();
    const before = await sharp(input).metadata();
    assert.ok(before.exif && before.xmp && before.icc, 'the generated input must carry EXIF, XMP and ICC');

    const result = await processImage(input, limitsWith());

    assert.deepEqual([result.format, result.contentType, result.extension], ['webp', 'image/webp', 'webp']);
    const after = await sharp(result.data).metadata();
    assert.equal(after.format, 'webp');
    assert.equal(after.exif, undefined);
    assert.equal(after.xmp, undefined);
    assert.ok(after.icc?.equals(before.icc), 'ICC profile must be kept');
  });
});

describe('processImage: resizing', () => {
  it('scales an image wider than maxWidth down proportionally', async () => {
    const input = await solidImage(3000, 1000).jpeg().toBuffer();
    const result = await processImage(input, limitsWith({ maxWidth: 2048 }));
    assert.equal(result.width, 2048);
    assert.ok(Math.abs(result.height - 683) <= 1, `height ${result.height}`);
    const after = await sharp(result.data).metadata();
    assert.deepEqual([after.width, after.height], [result.width, result.height]);
  });

  it('never scales a narrow image up', async () => {
    const input = await solidImage(300, 200).png().toBuffer();
    const result = await processImage(input, limitsWith({ maxWidth: 2048 }));
    assert.deepEqual([result.width, result.height], [300, 200]);
  });
});

describe('processImage: animations', () => {
  const colours = [RED, GREEN, BLUE, YELLOW];

  it('keeps every frame of an animated GIF, in order, and resizes each frame', async () => {
    const input = await animatedImage('gif', 300, 100, colours, { loop: 3 });
    assert.equal((await sharp(input).metadata()).pages, 4);

    const result = await processImage(input, limitsWith({ maxWidth: 150 }));

    assert.deepEqual([result.format, result.contentType, result.extension], ['gif', 'image/gif', 'gif']);
    assert.deepEqual([result.width, result.height], [150, 50], 'height is the height of one frame');
    const after = await sharp(result.data).metadata();
    assert.equal(after.format, 'gif');
    assert.equal(after.pages, 4);
    assert.deepEqual([after.width, after.height], [150, 50]);
    assert.equal(after.loop, 3);
    assert.equal(after.icc, undefined, 'GIF output carries no ICC profile');
    for (const [page, colour] of colours.entries()) {
      assertColour(await frameColour(result.data, page), colour, `frame ${page}`);
    }
  });

  it('keeps an animated GIF narrower than maxWidth at its size', async () => {
    const input = await animatedImage('gif', 120, 80, colours);
    const result = await processImage(input, limitsWith());
    assert.deepEqual([result.width, result.height], [120, 80]);
    assert.equal((await sharp(result.data).metadata()).pages, 4);
  });

  it('keeps identical consecutive GIF frames, so frame count and delays match the upload', async () => {
    const input = await animatedImage('gif', 30, 10, [RED, RED, GREEN]);
    const before = await sharp(input).metadata();
    assert.equal(before.pages, 3);
    const after = await sharp((await processImage(input, limitsWith())).data).metadata();
    assert.equal(after.pages, 3);
    assert.deepEqual(after.delay, before.delay);
  });

  it('refuses a GIF with more frames than maxGifFrames', async () => {
    const input = await animatedImage('gif', 30, 10, colours);
    await assertRejected(processImage(input, limitsWith({ maxGifFrames: 3 })), 'image_too_large');
    const accepted = await processImage(input, limitsWith({ maxGifFrames: 4 }));
    assert.equal((await sharp(accepted.data).metadata()).pages, 4);
  });

  it('refuses an animation whose frames add up to more than maxTotalPixels', async () => {
    const input = await animatedImage('gif', 300, 100, colours); // 4 x 30000 = 120000 pixels
    const rejection = await assertRejected(
      processImage(input, limitsWith({ maxTotalPixels: 119_999 })),
      'image_too_large',
    );
    assert.match(rejection.detail, /120000/);
  });

  it('accepts an animation within the total budget even if the strip exceeds maxPixels', async () => {
    // Each frame (30000) is within maxPixels, the 4-frame strip (120000) is not:
    // the decoder's own pixel limit must use the all-frames budget.
    const input = await animatedImage('gif', 300, 100, colours);
    const result = await processImage(input, limitsWith({ maxPixels: 30_000, maxTotalPixels: 120_000 }));
    assert.equal((await sharp(result.data).metadata()).pages, 4);
  });

  it('keeps the frames of an animated WebP', async () => {
    const input = await animatedImage('webp', 300, 100, colours.slice(0, 3));
    const result = await processImage(input, limitsWith({ maxWidth: 150 }));
    assert.equal(result.format, 'webp');
    assert.deepEqual([result.width, result.height], [150, 50]);
    const after = await sharp(result.data).metadata();
    assert.equal(after.pages, 3);
    for (const [page, colour] of colours.slice(0, 3).entries()) {
      assertColour(await frameColour(result.data, page), colour, `frame ${page}`);
    }
  });

  it('does not reorder the frames of an animated WebP carrying an EXIF orientation', async () => {
    // sharp would flip the whole frame strip for orientation 3, reversing the frames.
    const input = await animatedImage('webp', 30, 10, colours, { orientation: 3 });
    assert.equal((await sharp(input).metadata()).orientation, 3);
    const result = await processImage(input, limitsWith());
    const after = await sharp(result.data).metadata();
    assert.equal(after.pages, 4);
    assert.equal(after.exif, undefined);
    for (const [page, colour] of colours.entries()) {
      assertColour(await frameColour(result.data, page), colour, `frame ${page}`);
    }
  });

  it('accepts an animated WebP with a 90-degree EXIF orientation (which sharp cannot rotate)', async () => {
    const input = await animatedImage('webp', 30, 10, colours, { orientation: 6 });
    const result = await processImage(input, limitsWith());
    assert.deepEqual([result.width, result.height], [30, 10]);
    assert.equal((await sharp(result.data).metadata()).pages, 4);
  });
});

describe('processImage: size limits', () => {
  it('refuses a tiny PNG declaring 50000x50000 from its header, quickly', async () => {
    const input = pngDeclaring(50_000, 50_000);
    assert.ok(input.length < 200);
    const { result: rejection, cpuMs } = await withCpuTime(() =>
      assertRejected(processImage(input, limitsWith()), 'image_too_large'),
    );
    assert.match(rejection.detail, /50000x50000/);
    // Decoding 2.5 billion pixels would take far longer (and ~7.5 GB); CPU time, so other load on the machine does not count.
    assert.ok(cpuMs < 2000, `took ${cpuMs.toFixed(0)} ms of CPU`);
  });

  it('refuses a tiny GIF declaring 50000x50000 from its header', async () => {
    const input = gifDeclaring(50_000, 50_000);
    const rejection = await assertRejected(processImage(input, limitsWith()), 'image_too_large');
    assert.match(rejection.detail, /50000x50000/);
  });

  it('refuses an ordinary image above maxPixels', async () => {
    const input = await solidImage(300, 200).png().toBuffer();
    await assertRejected(processImage(input, limitsWith({ maxPixels: 59_999 })), 'image_too_large');
    await processImage(input, limitsWith({ maxPixels: 60_000 }));
  });

  it('refuses a file larger than maxBytes', async () => {
    const input = await solidImage(64, 64).jpeg().toBuffer();
    await assertRejected(processImage(input, limitsWith({ maxBytes: input.length - 1 })), 'image_too_large');
    await processImage(input, limitsWith({ maxBytes: input.length }));
  });

  it('checks the size before looking at the content', async () => {
    await assertRejected(processImage(randomBytes(2048), limitsWith({ maxBytes: 1024 })), 'image_too_large');
  });

  it('throws a RangeError (not a rejection) for invalid limits', async () => {
    const input = await solidImage(8, 8).png().toBuffer();
    await assert.rejects(processImage(input, limitsWith({ maxWidth: 0 })), RangeError);
    await assert.rejects(processImage(input, limitsWith({ maxPixels: 1.5 })), RangeError);
  });
});

describe('processImage: content type', () => {
  it('refuses SVG, with or without an XML prolog', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    await assertRejected(processImage(Buffer.from(svg), limitsWith()), 'unsupported_media_type');
    await assertRejected(
      processImage(Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${svg}`), limitsWith()),
      'unsupported_media_type',
    );
  });

  it('decides the format from the content alone', async () => {
    // Whatever name or type the client claimed, PNG bytes are processed as PNG.
    const input = await solidImage(16, 16).png().toBuffer();
    const result = await processImage(input, limitsWith());
    assert.deepEqual([result.format, result.contentType, result.extension], ['png', 'image/png', 'png']);
    assert.equal((await sharp(result.data).metadata()).format, 'png');
  });

  it('refuses random bytes', async () => {
    await assertRejected(processImage(randomBytes(4096), limitsWith()), 'unsupported_media_type');
  });

  it('refuses formats sharp could decode but the API does not accept (TIFF, AVIF)', async () => {
    const tiff = await solidImage(16, 16).tiff().toBuffer();
    await assertRejected(processImage(tiff, limitsWith()), 'unsupported_media_type');
    const avif = await solidImage(16, 16).avif({ effort: 0 }).toBuffer();
    await assertRejected(processImage(avif, limitsWith()), 'unsupported_media_type');
  });

  it('reports a truncated JPEG as unreadable', async () => {
    const jpeg = await twoToneImage(200, 150).jpeg().toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    assert.equal(sniffImageFormat(truncated), 'jpeg');
    await assertRejected(processImage(truncated, limitsWith()), 'unreadable');
  });

  it('reports other corrupt files with valid magic bytes as unreadable', async () => {
    const png = await twoToneImage(200, 150).png().toBuffer();
    await assertRejected(processImage(png.subarray(0, Math.floor(png.length * 0.6)), limitsWith()), 'unreadable');
    await assertRejected(processImage(png.subarray(0, 8), limitsWith()), 'unreadable');
    const webpMagic = Buffer.concat([Buffer.from('RIFF\x40\x00\x00\x00WEBPVP8 ', 'latin1'), randomBytes(64)]);
    await assertRejected(processImage(webpMagic, limitsWith()), 'unreadable');
    const gifMagic = Buffer.concat([Buffer.from('GIF89a', 'latin1'), randomBytes(64)]);
    await assertRejected(processImage(gifMagic, limitsWith()), 'unreadable');
  });
});
