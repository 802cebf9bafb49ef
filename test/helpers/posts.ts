import assert from 'node:assert/strict';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import type { Store } from '../../src/modules/stores/index.js';
import { START_TIME, type TestApp } from './test-app.js';

let counter = 0;

/** Creates a post through the API (unique content unless given) and returns its JSON. */
export async function createPost(
  t: TestApp,
  key: string,
  body: Record<string, unknown> = {},
  idempotencyKey = `idem-${++counter}-${Math.random()}`,
) {
  const res = await t.request({
    method: 'POST',
    url: '/v1/blog/posts',
    key,
    headers: { 'idempotency-key': idempotencyKey },
    body: { title: `Post ${++counter}`, body_html: `<p>Body ${counter} ${Math.random()}</p>`, ...body },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

export function publish(t: TestApp, key: string, id: number, published_at?: string | null) {
  return t.request({
    method: 'POST',
    url: `/v1/blog/posts/${id}/publish`,
    key,
    ...(published_at === undefined ? {} : { body: { published_at } }),
  });
}

/** Creates a category through the API and returns its id. */
export async function addCategory(t: TestApp, key: string, name: string): Promise<number> {
  const res = await t.request({
    method: 'POST',
    url: '/v1/blog/categories',
    key,
    headers: { 'idempotency-key': `cat-${randomLowerAlnum(12)}` },
    body: { name },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as number;
}

/** An uploaded image as the media module records it (store pages need the row, not the file); its URL. */
export async function insertImageRow(t: TestApp, store: Store, width: number, height: number): Promise<string> {
  const basename = `${randomLowerAlnum(24)}.jpg`;
  await t.ctx.db
    .insertInto('images')
    .values({
      id: `img_${randomLowerAlnum(24)}`,
      store_id: store.id,
      basename,
      sha256: randomLowerAlnum(64),
      content_type: 'image/jpeg',
      width,
      height,
      bytes: 1234,
      created_at: Date.parse(START_TIME),
      deleted_at: null,
    })
    .execute();
  return `http://blog.test/media/${store.handle}/${basename}`;
}
