// Responsive images on post pages, on both engines: the cover and the store's own body images
// carry a srcset of their variants (widths below their own, then the image itself), sizes, and
// width and height from the images table; the page's first image loads at once and every later
// one is lazy; images from elsewhere keep their attributes. Every srcset candidate is fetched and
// its width checked against its descriptor.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { Parser } from 'htmlparser2';
import sharp from 'sharp';
import { createPost, publish } from '../helpers/posts.js';
import { htmlProblems } from '../helpers/html-validation.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import { uploadPhoto } from './media-variants-support.js';

const SIZES = '(max-width: 46rem) calc(100vw - 2.5rem), 43.5rem';

/** The attributes of every <img> of a page, in document order. */
function images(page: string): Array<Record<string, string>> {
  const found: Array<Record<string, string>> = [];
  const parser = new Parser({ onopentag: (name, attributes) => name === 'img' && found.push(attributes) });
  parser.write(page);
  parser.end();
  return found;
}

/** A srcset as [url, width descriptor] pairs. */
function candidates(srcset: string): Array<[string, number]> {
  return srcset.split(', ').map((c) => {
    const [url, descriptor] = c.split(' ');
    assert.match(descriptor, /^[1-9][0-9]*w$/);
    return [url, Number(descriptor.slice(0, -1))];
  });
}

describeTenantApp('responsive images on post pages', (suite) => {
  const pageOf = async (body: Record<string, unknown>) => {
    const post = await createPost(suite.t, suite.key, body);
    assert.equal((await publish(suite.t, suite.key, post.id)).statusCode, 200);
    const res = await suite.t.request({ method: 'GET', url: `/s/${suite.store.handle}/blog/posts/${post.id}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };
  /** Each candidate is served at the width its descriptor says. */
  const assertCandidatesServed = async (srcset: string) => {
    for (const [url, width] of candidates(srcset)) {
      const res = await suite.t.app.inject({
        method: 'GET',
        url: new URL(url, 'http://blog.test').pathname + new URL(url, 'http://blog.test').search,
        headers: { accept: 'image/webp' },
      });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.equal((await sharp(res.rawPayload).metadata()).width, width, url);
    }
  };

  it('gives the cover and own body images srcset, sizes, width and height; only the first image is eager', async () => {
    const cover = await uploadPhoto(suite.t, suite.key, 1500, 1000);
    const inBody = await uploadPhoto(suite.t, suite.key, 700, 400);
    const byPath = await uploadPhoto(suite.t, suite.key, 300, 200);
    const page = await pageOf({
      title: 'Pictures',
      cover_image_url: cover.url,
      body_html: `<p><img src="${inBody.url}" alt="in body" width="10" height="10" loading="eager"></p><p><img src="https://example.com/x.png" alt="elsewhere" width="50" height="40"></p><p><img src="${byPath.path}" alt="by path"></p>`,
    });
    assert.deepEqual(await htmlProblems(page), []);
    const [coverTag, bodyTag, externalTag, pathTag, ...rest] = images(page);
    assert.deepEqual(rest, []);
    assert.deepEqual(coverTag, {
      class: 'cover',
      src: cover.url,
      srcset: `${cover.url}?w=320 320w, ${cover.url}?w=640 640w, ${cover.url}?w=960 960w, ${cover.url}?w=1280 1280w, ${cover.url} 1500w`,
      sizes: SIZES,
      alt: 'Pictures',
      width: '1500',
      height: '1000',
      fetchpriority: 'high',
    });
    assert.deepEqual(bodyTag, {
      src: inBody.url,
      srcset: `${inBody.url}?w=320 320w, ${inBody.url}?w=640 640w, ${inBody.url} 700w`,
      sizes: SIZES,
      alt: 'in body',
      width: '700',
      height: '400',
      loading: 'lazy',
    });
    assert.deepEqual(externalTag, {
      src: 'https://example.com/x.png',
      alt: 'elsewhere',
      width: '50',
      height: '40',
      loading: 'lazy',
    });
    assert.deepEqual(pathTag, {
      src: byPath.path,
      srcset: `${byPath.path} 300w`,
      sizes: SIZES,
      alt: 'by path',
      width: '300',
      height: '200',
      loading: 'lazy',
    });
    await assertCandidatesServed(coverTag.srcset);
    await assertCandidatesServed(bodyTag.srcset);
  });

  it('without a cover, the first body image is eager and the next ones lazy', async () => {
    const [a, b] = [await uploadPhoto(suite.t, suite.key, 1000, 500), await uploadPhoto(suite.t, suite.key, 400, 400)];
    const page = await pageOf({
      title: 'No cover',
      body_html: `<p><img src="${a.url}" alt="first" loading="lazy"></p><p><img src="${b.url}" alt="second"></p>`,
    });
    const [first, second] = images(page);
    assert.equal(first.loading, undefined, 'the first image is not lazy');
    assert.equal(first.width, '1000');
    assert.equal(first.height, '500');
    assert.deepEqual(
      candidates(first.srcset).map(([, w]) => w),
      [320, 640, 960, 1000],
    );
    assert.equal(second.loading, 'lazy');
    assert.equal(second.srcset, `${b.url}?w=320 320w, ${b.url} 400w`);
  });
});
