// The data a fuzz run works against: a store with every feature and its keys, a second store
// (its ids must stay out of reach), pools of live ids the generators pick from, and sentinel
// records written before the run that must read back identically after it.
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';
import { createPost } from '../helpers/posts.js';
import { solidImage, GREEN, BLUE } from '../helpers/image-fixtures.js';
import { upload, uniqueJpeg } from '../api/media-support.js';

export interface World {
  port: number;
  /** The keys a fuzz case may send: the main store's, a read-only one, a stranger's, a bare store's. */
  keys: { main: string; readOnly: string; stranger: string; noFeatures: string };
  /** Posts of the main store the fuzz may change; grows with every post it creates. */
  posts: number[];
  /** Categories of the main store the fuzz may change (rename, move, delete); grows with every one it creates. */
  categories: number[];
  /** Never a fuzz target: the sentinel post's categories, which must read back unchanged. */
  sentinelCategories: number[];
  images: string[];
  imageUrls: string[];
  cursors: string[];
  tokens: string[];
  /** Bytes of small, valid images to upload. */
  imageFiles: Buffer[];
  /** A second store's records: reached by id with the other keys, never with its own key. */
  other: { key: string; postId: number; imageId: string; imageUrl: string; categoryId: number };
  /** Never a fuzz target itself: only reached through its category and cover image. */
  sentinelPostId: number;
}

export interface Snapshot {
  sentinel: unknown;
  otherPost: unknown;
  otherCategories: unknown;
  mainCategories: unknown[];
  sentinelCover: Buffer;
}

/** In-flight slots of every fuzz key; the suite checks at the end that none is still held. */
export const MAIN_KEY_CONCURRENCY = 64;

export async function buildWorld(t: TestApp): Promise<World> {
  // Limits high enough that the fuzz reaches the handlers instead of spending itself on 429s.
  const generous = { readPerMinute: 1_000_000, writePerMinute: 1_000_000, concurrency: MAIN_KEY_CONCURRENCY };
  const changes = { posts_per_day: 1_000_000, images_per_day: 1_000_000, body_max_bytes: 64 * 1024, emoji_allowed: 1 };
  const main = await t.createStore({ categories: true, media: true, changes });
  const other = await t.createStore({ categories: true, media: true, changes });
  const stranger = await t.createStore({ categories: true, media: true, changes });
  const bare = await t.createStore({ categories: false, media: false, changes });
  const otherKey = await t.issueKey(other, undefined, generous);
  const keys = {
    main: await t.issueKey(main, undefined, generous),
    readOnly: await t.issueKey(main, ['read_blog'], generous),
    stranger: await t.issueKey(stranger, undefined, generous),
    noFeatures: await t.issueKey(bare, undefined, generous),
  };

  const category = async (key: string, name: string, parent_id?: number) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key,
      headers: { 'idempotency-key': `cat-${Math.random()}` },
      body: { name, parent_id },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as number;
  };
  const image = async (key: string) => {
    const res = await upload(t, key, await uniqueJpeg(), { filename: 'cover.jpg' });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; url: string; path: string };
  };

  // The categories the fuzz may rename, move and delete come first, so that the sentinel's
  // have larger ids than small numbers a hostile path tends to try.
  const targetCategory = await category(keys.main, 'Fuzz target');
  const targetChild = await category(keys.main, 'Fuzz target child', targetCategory);
  for (let i = 0; i < 8; i++) await category(keys.main, `Filler ${i}`);
  const parent = await category(keys.main, 'Notes');
  const child = await category(keys.main, 'Δ notes 📝', parent);
  const cover = await image(keys.main);
  const spare = await image(keys.main);
  const sentinel = await createPost(t, keys.main, {
    title: 'Sentinel: 中文 “quotes” é',
    summary: 'Kept as written',
    body_html: '<p>Unchanged <strong>after</strong> the run.</p>',
    category_ids: [parent, child],
    default_category_id: child,
    cover_image_url: cover.url,
  });
  const publish = await t.request({ method: 'POST', url: `/v1/blog/posts/${sentinel.id}/publish`, key: keys.main });
  assert.equal(publish.statusCode, 200, publish.body);

  const targets: number[] = [];
  for (let i = 0; i < 3; i++) targets.push((await createPost(t, keys.main, { category_ids: [targetCategory] })).id);

  const otherCategory = await category(otherKey, 'Elsewhere');
  const otherImage = await image(otherKey);
  const otherPost = await createPost(t, otherKey, { category_ids: [otherCategory], cover_image_url: otherImage.url });

  const list = await t.request({ method: 'GET', url: '/v1/blog/posts?limit=1', key: keys.main });
  const otherList = await t.request({ method: 'GET', url: '/v1/blog/posts?limit=1', key: otherKey });

  return {
    port: 0,
    keys,
    posts: targets,
    categories: [targetCategory, targetChild],
    sentinelCategories: [parent, child],
    images: [cover.id, spare.id],
    imageUrls: [cover.url, spare.url],
    cursors: [list.json().meta.next_cursor, otherList.json().meta.next_cursor].filter(Boolean),
    tokens: [],
    imageFiles: [
      await uniqueJpeg(),
      await solidImage(3, 2, GREEN).png().toBuffer(),
      await solidImage(2, 2, BLUE).gif().toBuffer(),
    ],
    other: {
      key: otherKey,
      postId: otherPost.id,
      imageId: otherImage.id,
      imageUrl: otherImage.url,
      categoryId: otherCategory,
    },
    sentinelPostId: sentinel.id,
  };
}

/** What must read back identically after the run, read through the API with real keys. */
export async function snapshot(t: TestApp, w: World): Promise<Snapshot> {
  const get = async (url: string, key: string) => {
    const res = await t.request({ method: 'GET', url, key });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json();
  };
  const sentinel = await get(`/v1/blog/posts/${w.sentinelPostId}`, w.keys.main);
  const cover = await t.app.inject({ method: 'GET', url: sentinel.cover_image.path });
  assert.equal(cover.statusCode, 200);
  const mainCategories = (await get('/v1/blog/categories', w.keys.main)).data.filter((c: { id: number }) =>
    w.sentinelCategories.includes(c.id),
  );
  return {
    sentinel,
    otherPost: await get(`/v1/blog/posts/${w.other.postId}`, w.other.key),
    otherCategories: await get('/v1/blog/categories', w.other.key),
    mainCategories,
    sentinelCover: cover.rawPayload,
  };
}
