// No metric label carries a store handle, a key id or a post id (docs/operations.md, "Labels are
// bounded"): after traffic in several stores (posts written, read, searched and edited, images
// uploaded, webhooks made, errors and refusals, keys about to expire), every sample of every
// metric the service exposes is read and each of its label values compared with them.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { createPost, publish } from '../helpers/posts.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import { upload, uniqueJpeg } from './media-support.js';

/**
 * Labels whose values are numbers fixed in the code or the runtime, never taken from requests:
 * a histogram's or summary's buckets, and the Node version's parts (nodejs_version_info).
 */
const FIXED_NUMBER_LABELS = new Set(['le', 'quantile', 'major', 'minor', 'patch']);

/** Every label of every sample in a Prometheus text exposition, as [metric, label, value]. */
function labelsOf(text: string): Array<[string, string, string]> {
  const found: Array<[string, string, string]> = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? \S+$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      found.push([match[1]!, pair[1]!, pair[2]!]);
  }
  return found;
}

describeTenantApp(
  'metric labels name no store, key or post',
  { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }, tenant: false },
  (suite) => {
    it('after traffic in several stores, no label value is a store handle, a key id or a post id', async () => {
      const handles: string[] = [];
      const keyIds: string[] = [];
      const postIds: number[] = [];
      for (let s = 0; s < 3; s++) {
        const { store, key } = await suite.t.tenant({ media: true, categories: true });
        handles.push(store.handle);
        keyIds.push(key.slice(9, 17));
        // A key close to expiry, and one that will be refused by its rate limit.
        const expiring = await suite.t.issueKey(store, ['read_blog'], { expiresInDays: 3, readPerMinute: 1 });
        keyIds.push(expiring.slice(9, 17));
        for (let p = 0; p < 3; p++) {
          const post = await createPost(suite.t, key, { title: `Shop ${s} post ${p}` });
          postIds.push(post.id);
          assert.equal((await publish(suite.t, key, post.id)).statusCode, 200);
          const read = await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${post.id}`, key });
          assert.equal(read.statusCode, 200, read.body);
          const edited = await suite.t.request({
            method: 'PATCH',
            url: `/v1/blog/posts/${post.id}`,
            key,
            body: { title: `Shop ${s} post ${p} edited` },
          });
          assert.equal(edited.statusCode, 200, edited.body);
        }
        const search = await suite.t.request({ method: 'GET', url: '/v1/blog/posts?q=shop', key });
        assert.equal(search.statusCode, 200, search.body);
        assert.equal((await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key: expiring })).statusCode, 200);
        assertError(await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key: expiring }), 'rate_limited');
        assertError(await suite.t.request({ method: 'GET', url: '/v1/blog/posts/987654321', key }), 'not_found');
        const category = await suite.t.request({
          method: 'POST',
          url: '/v1/blog/categories',
          key,
          headers: { 'idempotency-key': `labels-cat-${s}` },
          body: { name: `Cat ${s}` },
        });
        assert.equal(category.statusCode, 201, category.body);
        assert.equal((await upload(suite.t, key, await uniqueJpeg({ r: 40 * s, g: 80, b: 120 }))).statusCode, 201);
        const hook = await suite.t.request({
          method: 'POST',
          url: '/v1/webhooks',
          key,
          body: { url: 'http://127.0.0.1:9/hook', events: ['post.published'] },
        });
        assert.equal(hook.statusCode, 201, hook.body);
      }

      const res = await suite.t.request({ method: 'GET', url: '/metrics' });
      assert.equal(res.statusCode, 200, res.body);
      const labels = labelsOf(res.body);
      // The scrape holds the metrics this traffic touched, so the check below has something to read.
      for (const name of ['http_requests_total', 'blog_api_errors_total', 'blog_api_keys_expiring'])
        assert.ok(res.body.includes(`\n${name}`), `the scrape has ${name}`);
      const values = new Map<string, string>([
        ...handles.map((h) => [h, `store handle ${h}`] as const),
        ...keyIds.map((k) => [k, `key id ${k}`] as const),
      ]);
      const ids = new Map(postIds.map((id) => [String(id), `post id ${id}`] as const));
      const leaks = labels.flatMap(([metric, label, value]) => {
        const named = values.get(value) ?? (FIXED_NUMBER_LABELS.has(label) ? undefined : ids.get(value));
        const inside = [...values.keys()].find((v) => value.includes(v));
        return named || inside ? [`${metric}{${label}="${value}"}: ${named ?? values.get(inside!)}`] : [];
      });
      assert.deepEqual(leaks, []);
    });
  },
);
