import assert from 'node:assert/strict';
import type { TestApp } from './test-app.js';

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
