// The SDK (the store-blog-sdk workspace package, as built by npm install) against a real server
// listening on a loopback port, on both engines: every method in one scenario, each retry rule
// with real answers from the server (its own rate limit, its quota, its validation) and injected
// network failures, paging over several pages, and verifyWebhook on a real signed delivery
// received by a real HTTP receiver. Waits between retries go through an injected sleep that
// moves the server's injected clock instead of waiting.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BlogApiError,
  BlogClient,
  BlogConnectionError,
  etagOf,
  verifyWebhook,
  WebhookVerificationError,
  type BlogClientOptions,
  type PostListItem,
} from 'store-blog-sdk';
import { verifyWebhookSync } from 'store-blog-sdk/node';
import { describeEachEngine } from '../helpers/engines.js';
import type { TestApp } from '../helpers/test-app.js';
import type { Receiver } from '../helpers/webhook-receiver.js';
import { collect, png, startSdkServer, type SdkServer } from '../helpers/sdk-server.js';

interface Sent {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number | 'network error';
  retryAfter: string | null;
}

/** fetch that records what was sent and answered; `fail(n)` decides which calls fail, and whether before or after the server saw them. */
function recordingFetch(fail: (call: number, init: RequestInit | undefined) => 'before' | 'after' | null = () => null) {
  const sent: Sent[] = [];
  const impl: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const entry: Sent = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      idempotencyKey: headers.get('idempotency-key'),
      status: 'network error',
      retryAfter: null,
    };
    sent.push(entry);
    const failure = fail(sent.length, init);
    if (failure === 'before') throw new TypeError('fetch failed');
    const res = await fetch(input, init);
    if (failure === 'after') {
      await res.arrayBuffer();
      throw new TypeError('fetch failed: the connection closed before the answer arrived');
    }
    entry.status = res.status;
    entry.retryAfter = res.headers.get('retry-after');
    return res;
  };
  return { sent, impl };
}

describeEachEngine('store-blog-sdk against a real server', (target) => {
  let server: SdkServer;
  let t: TestApp;
  let baseUrl: string;
  let rx: Receiver;
  /** Sleeps asked for by clients; each moves the server's clock as far instead of waiting. */
  let sleeps: number[];

  before(async () => {
    server = await startSdkServer(target);
    ({ t, baseUrl, rx } = server);
  });
  after(() => server?.close());

  const client = (apiKey: string, options: Partial<BlogClientOptions> = {}) => {
    sleeps = [];
    return new BlogClient({
      baseUrl,
      apiKey,
      ...options,
      retry: {
        sleep: async (ms) => {
          sleeps.push(ms);
          t.clock.advance(ms);
        },
        ...options.retry,
      },
    });
  };

  it('a full scenario through every method', async () => {
    const { store, key } = await t.tenant({ categories: true, media: true });
    const sdk = client(key);

    const me = await sdk.me();
    assert.equal(me.store.handle, store.handle);
    assert.equal(me.features.blog_categories, true);

    const guides = await sdk.categories.create({ name: 'Brewing guides', parent_id: null });
    const pourOver = await sdk.categories.create({ name: 'Pour-over', parent_id: guides.id });
    assert.equal(pourOver.depth, 2);
    const conflict = await sdk.categories.create({ name: 'Brewing guides' }).catch((e: unknown) => e);
    assert.ok(conflict instanceof BlogApiError);
    assert.deepEqual(
      [conflict.status, conflict.code, conflict.retryable, conflict.detail('category_id')],
      [409, 'category_name_conflict', false, String(guides.id)],
    );
    assert.equal(typeof conflict.requestId, 'string');
    assert.deepEqual(await sdk.categories.create({ name: 'Brewing guides' }, { reuseExisting: true }), guides);
    assert.deepEqual(
      (await sdk.categories.list()).map((c) => c.id),
      [guides.id, pourOver.id],
    );

    const image = await sdk.images.upload(await png(64, 48), { filename: 'cover.png' });
    assert.match(image.id, /^img_/);
    assert.equal(image.content_type, 'image/png');
    const again = await sdk.images.upload(new Blob([await png(64, 48)]), { filename: 'same.png' });
    assert.equal(again.id, image.id, 'the same content is the same image');

    const post = await sdk.posts.create({
      title: 'Autumn pour-over guide',
      body_html: '<p>Grind <strong>medium-fine</strong>.</p>',
      category_ids: [guides.id, pourOver.id],
      default_category_id: guides.id,
      cover_image_url: image.url,
    });
    assert.equal(post.status, 'draft');
    assert.equal(post.cover_image?.url, image.url);
    assert.match(etagOf(post) ?? '', /^"[A-Za-z0-9_-]+"$/);
    const read = await sdk.posts.get(post.id);
    assert.deepEqual(read, post);
    assert.equal(etagOf(read), etagOf(post));

    const edited = await sdk.posts.update(post.id, { summary: 'Medium-fine, 92 °C' }, { ifMatch: read });
    assert.equal(edited.summary, 'Medium-fine, 92 °C');
    const stale = await sdk.posts.update(post.id, { title: 'Lost update' }, { ifMatch: read }).catch((e: unknown) => e);
    assert.ok(stale instanceof BlogApiError);
    assert.deepEqual(
      [stale.status, stale.code, stale.retryable, stale.details.map((d) => d.field)],
      [412, 'precondition_failed', false, ['If-Match']],
    );
    assert.equal((await sdk.posts.get(post.id)).title, 'Autumn pour-over guide');

    const published = await sdk.posts.publish(post.id, { ifMatch: edited });
    assert.equal(published.status, 'published');
    const scheduled = await sdk.posts.publish(post.id, { published_at: '2026-12-01T09:00:00+08:00' });
    assert.equal(scheduled.status, 'scheduled');
    const draft = await sdk.posts.unpublish(post.id, { ifMatch: etagOf(scheduled) });
    assert.equal(draft.status, 'draft');

    const page = await sdk.posts.listPage({ limit: 10 });
    assert.deepEqual(
      page.data.map((p) => p.id),
      [post.id],
    );
    assert.equal(page.meta.next_cursor, null);
    assert.deepEqual(
      (await collect(sdk.posts.list({ category_id: pourOver.id }))).map((p) => p.id),
      [post.id],
    );

    const actions = (await collect(sdk.audit.list({ resource_type: 'post' }))).map((e) => e.action);
    assert.deepEqual(actions, ['post.unpublished', 'post.scheduled', 'post.published', 'post.updated', 'post.created']);

    const inUse = await sdk.images.delete(image.id).catch((e: unknown) => e);
    assert.ok(inUse instanceof BlogApiError && inUse.code === 'image_in_use');
    await sdk.posts.delete(post.id, { ifMatch: draft });
    const gone = await sdk.posts.get(post.id).catch((e: unknown) => e);
    assert.ok(gone instanceof BlogApiError);
    assert.deepEqual([gone.status, gone.code], [404, 'not_found']);
    await sdk.images.delete(image.id);
    assert.deepEqual(sleeps, [], 'nothing was retried');
  });

  it('finds and sorts with the list parameters, manages categories, and opens a preview link', async () => {
    const { key } = await t.tenant({ categories: true });
    const sdk = client(key);
    const beans = await sdk.categories.create({ name: 'Beans', parent_id: null });
    const origins = await sdk.categories.create({ name: 'Origins', parent_id: null });
    const ethiopia = await sdk.categories.create({ name: 'Ethiopia', parent_id: beans.id });
    const post = await sdk.posts.create({
      title: 'Yirgacheffe 淺焙',
      body_html: '<p>Jasmine and bergamot.</p>',
      category_ids: [ethiopia.id],
      default_category_id: ethiopia.id,
    });
    await sdk.posts.create({ title: 'Espresso basics', body_html: '<p>Nine bars.</p>' });

    assert.deepEqual(
      (await sdk.posts.listPage({ q: 'BERGAMOT' })).data.map((p) => p.id),
      [post.id],
    );
    assert.deepEqual(
      (await sdk.posts.listPage({ q: '淺焙' })).data.map((p) => p.id),
      [post.id],
    );
    const oldestFirst = await sdk.posts.listPage({ order_by: 'updated_at', direction: 'asc' });
    assert.equal(oldestFirst.data[0].id, post.id);

    const moved = await sdk.categories.update(ethiopia.id, { name: 'Ethiopian', parent_id: origins.id });
    assert.deepEqual([moved.name, moved.parent_id, moved.depth], ['Ethiopian', origins.id, 2]);
    const refused = await sdk.categories.delete(origins.id).catch((e: unknown) => e);
    assert.ok(refused instanceof BlogApiError);
    assert.deepEqual([refused.status, refused.code, refused.retryable], [409, 'category_has_children', false]);
    await sdk.categories.delete(ethiopia.id);
    assert.deepEqual((await sdk.posts.get(post.id)).category_ids, [], 'the post lost the deleted category');
    assert.deepEqual(
      (await sdk.categories.list()).map((c) => c.id),
      [beans.id, origins.id],
    );

    const link = await sdk.posts.createPreviewLink(post.id, { expires_in_seconds: 3600 });
    assert.match(link.url, /\/blog\/preview\//);
    const page = await fetch(link.url.replace(t.config.publicBaseUrl, baseUrl));
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-robots-tag'), 'noindex, nofollow');
    assert.ok((await page.text()).includes('Yirgacheffe 淺焙'));
    assert.deepEqual(sleeps, [], 'nothing was retried');
  });

  it('webhooks: every method, and verifyWebhook accepts a real delivery and refuses a forged one', async () => {
    const { key } = await t.tenant();
    const sdk = client(key);
    rx.clear();
    const endpoint = await sdk.webhooks.create({
      url: rx.url,
      events: ['post.published'],
      description: 'Rebuild the shop pages',
    });
    assert.match(endpoint.secret, /^whsec_/);
    assert.deepEqual(
      (await sdk.webhooks.list()).map((e) => e.id),
      [endpoint.id],
    );
    assert.equal((await sdk.webhooks.get(endpoint.id)).description, 'Rebuild the shop pages');
    assert.equal((await sdk.webhooks.update(endpoint.id, { description: 'Static pages' })).description, 'Static pages');

    const post = await sdk.posts.create({ title: 'Webhook news', body_html: '<p>Signed.</p>' });
    await sdk.posts.publish(post.id);
    await t.ctx.webhookWorker.runOnce();
    const [delivery] = rx.ofType('post.published');
    assert.ok(delivery, 'the receiver got the event');
    const now = t.clock.now();
    const headers = delivery.headers as Record<string, string>;
    const event = await verifyWebhook(delivery.body, headers, endpoint.secret, { now });
    assert.equal(event.type, 'post.published');
    assert.equal(event.type === 'post.published' && event.data.id, post.id);
    assert.deepEqual(
      verifyWebhookSync(Buffer.from(delivery.body), headers, endpoint.secret, { now }),
      event,
      'the Node variant agrees',
    );
    const forged = delivery.body.replace('Webhook news', 'Forged news');
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await assert.rejects(verifyWebhook(forged, headers, endpoint.secret, { now }), WebhookVerificationError);
    await assert.rejects(verifyWebhook(delivery.body, headers, otherSecret, { now }), WebhookVerificationError);
    await assert.rejects(
      verifyWebhook(delivery.body, headers, endpoint.secret, { now: now.getTime() + 3_600_000 }),
      WebhookVerificationError,
      'too old',
    );
    assert.throws(() => verifyWebhookSync(forged, headers, endpoint.secret, { now }), WebhookVerificationError);
    assert.throws(() => verifyWebhookSync(delivery.body, headers, otherSecret, { now }), WebhookVerificationError);

    t.clock.advance(1000); // deliveries list newest first: the test event is a second newer
    const rotated = await sdk.webhooks.rotateSecret(endpoint.id);
    assert.notEqual(rotated.secret, endpoint.secret);
    const test = await sdk.webhooks.test(endpoint.id);
    assert.equal(test.event_type, 'webhook.test');
    await t.ctx.webhookWorker.runOnce();
    const [testDelivery] = rx.ofType('webhook.test');
    for (const secret of [rotated.secret, endpoint.secret, [endpoint.secret, rotated.secret]]) {
      assert.equal(
        (
          await verifyWebhook(testDelivery.body, new Headers(testDelivery.headers as Record<string, string>), secret, {
            now: t.clock.now(),
          })
        ).type,
        'webhook.test',
      );
    }
    // A sample of a content type the endpoint does not subscribe to: the newest post, as the real event carries it.
    t.clock.advance(1000);
    const sample = await sdk.webhooks.sample(endpoint.id, 'post.updated');
    assert.equal(sample.event_type, 'post.updated');
    await t.ctx.webhookWorker.runOnce();
    const [sampleDelivery] = rx.ofType('post.updated');
    assert.ok(sampleDelivery, 'the receiver got the sample');
    const sampled = await verifyWebhook(
      sampleDelivery.body,
      sampleDelivery.headers as Record<string, string>,
      rotated.secret,
      {
        now: t.clock.now(),
      },
    );
    assert.equal(sampled.type, 'post.updated');
    const { etag: _etag, ...current } = await sdk.posts.get(post.id); // the SDK adds the ETag header
    assert.deepEqual(sampled.type === 'post.updated' && sampled.data, current);
    const deliveries = await collect(sdk.webhooks.deliveries(endpoint.id, { limit: 1 }));
    assert.deepEqual(
      deliveries.map((d) => d.event_type),
      ['post.updated', 'webhook.test', 'post.published'],
    );
    await sdk.webhooks.delete(endpoint.id);
    assert.deepEqual(await sdk.webhooks.list(), []);
  });

  it('a copied post (spread, structuredClone, JSON) carries its ETag for ifMatch; a stale copy gets 412', async () => {
    const { key } = await t.tenant();
    const sdk = client(key);
    const post = await sdk.posts.create({ title: 'Copied around', body_html: '<p>v1</p>' });
    assert.match(post.etag ?? '', /^"[A-Za-z0-9_-]+"$/);
    assert.equal(etagOf(post), post.etag);
    const spread = { ...post };
    const cloned = structuredClone(post);
    const fromJson = JSON.parse(JSON.stringify(post)) as typeof post;
    const edited = await sdk.posts.update(post.id, { summary: 'from a spread copy' }, { ifMatch: spread });
    assert.notEqual(edited.etag, post.etag, 'a new version, a new ETag');
    for (const stale of [cloned, fromJson, post.etag!]) {
      const err = await sdk.posts
        .update(post.id, { title: 'Lost update' }, { ifMatch: stale })
        .catch((e: unknown) => e);
      assert.ok(err instanceof BlogApiError, String(err));
      assert.deepEqual([err.status, err.code], [412, 'precondition_failed']);
    }
    const published = await sdk.posts.publish(post.id, { ifMatch: structuredClone(edited) });
    assert.equal(published.status, 'published');
    assert.equal((await sdk.posts.get(post.id)).etag, published.etag);
    await assert.rejects(
      sdk.posts.update(post.id, { title: 'x' }, { ifMatch: { ...published, etag: null } }),
      /ifMatch: no ETag/,
    );
  });

  it('hooks see every attempt with its request id; autoPagingToArray fetches only the pages it needs', async () => {
    const store = await t.createStore();
    const key = await t.issueKey(store, undefined, { writePerMinute: 3 });
    const seen: string[] = [];
    const requestIds: Array<string | null> = [];
    const sdk = client(key, {
      maxRetryDelayMs: 60_000,
      onRequest: (e) =>
        seen.push(`request ${e.method} ${new URL(e.url).pathname} #${e.attempt}${e.idempotencyKey ? ' with key' : ''}`),
      onResponse: (e) => {
        seen.push(`response ${e.status} #${e.attempt}${e.willRetry ? ' will retry' : ''}`);
        requestIds.push(e.requestId);
        throw new Error('a broken logger changes nothing');
      },
    });
    for (let i = 1; i <= 4; i++) await sdk.posts.create({ title: `Hooked post ${i}`, body_html: `<p>${i}</p>` });
    assert.deepEqual(seen.slice(-4), [
      'request POST /v1/blog/posts #1 with key',
      'response 429 #1 will retry',
      'request POST /v1/blog/posts #2 with key',
      'response 201 #2',
    ]);
    assert.ok(
      requestIds.every((id) => typeof id === 'string' && id.length > 0),
      'every answer had a request id',
    );
    seen.length = 0;
    const firstThree = await sdk.posts.list({ limit: 2 }).autoPagingToArray({ limit: 3 });
    assert.deepEqual(
      firstThree.map((p) => p.title),
      ['Hooked post 4', 'Hooked post 3', 'Hooked post 2'],
    );
    assert.equal(seen.filter((line) => line.startsWith('request')).length, 2, 'two pages of two, not the whole list');
    assert.equal((await sdk.posts.list().autoPagingToArray({ limit: 100 })).length, 4);
    await assert.rejects(sdk.posts.list().autoPagingToArray({ limit: -1 }), TypeError);
  });

  it('paging: list and audit.list walk every page, one request per page', async () => {
    const { key } = await t.tenant();
    const { sent, impl } = recordingFetch();
    const sdk = client(key, { fetch: impl });
    const created: number[] = [];
    for (let i = 1; i <= 5; i++)
      created.push((await sdk.posts.create({ title: `Paged post ${i}`, body_html: `<p>Page body ${i}</p>` })).id);
    sent.length = 0;
    const listed: PostListItem[] = await collect(sdk.posts.list({ limit: 2 }));
    assert.deepEqual(
      listed.map((p) => p.id),
      [...created].reverse(),
    );
    assert.deepEqual(
      sent.map((s) => s.path.split('?')[0]),
      ['/v1/blog/posts', '/v1/blog/posts', '/v1/blog/posts'],
    );
    assert.ok(sent[1].path.includes('cursor='));
    sent.length = 0;
    const events = await collect(sdk.audit.list({ action: 'post.created', limit: 2 }));
    assert.equal(events.length, 5);
    assert.equal(sent.length, 3);
  });

  it('retries a real 429 rate_limited after its Retry-After, then succeeds', async () => {
    const store = await t.createStore();
    const { sent, impl } = recordingFetch();
    const sdk = client(await t.issueKey(store, undefined, { readPerMinute: 2 }), {
      fetch: impl,
      maxRetryDelayMs: 60_000,
      retry: { random: () => 0 },
    });
    await sdk.me();
    await sdk.me();
    const me = await sdk.me();
    assert.equal(me.store.handle, store.handle);
    assert.deepEqual(
      sent.map((s) => s.status),
      [200, 200, 429, 200],
    );
    const retryAfter = Number(sent[2].retryAfter);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${sent[2].retryAfter}`);
    assert.deepEqual(sleeps, [retryAfter * 1000], 'waited exactly Retry-After (the jitter drew 0)');
  });

  it('retries a create refused by a real 429 after Retry-After, with the same idempotency key', async () => {
    const store = await t.createStore();
    const { sent, impl } = recordingFetch();
    const sdk = client(await t.issueKey(store, undefined, { writePerMinute: 1 }), {
      fetch: impl,
      maxRetryDelayMs: 60_000,
      retry: { random: () => 0 },
    });
    await sdk.posts.create({ title: 'First of the minute', body_html: '<p>1</p>' });
    const second = await sdk.posts.create({ title: 'Second of the minute', body_html: '<p>2</p>' });
    assert.equal(second.title, 'Second of the minute');
    assert.deepEqual(
      sent.map((s) => s.status),
      [201, 429, 201],
    );
    assert.equal(sent[1].idempotencyKey, sent[2].idempotencyKey);
    assert.deepEqual(sleeps, [Number(sent[1].retryAfter) * 1000]);
  });

  it('retries publish, upload and preview links refused by a real 429: nothing was done, so any method is sent again', async () => {
    const store = await t.createStore({ media: true });
    const { sent, impl } = recordingFetch();
    const sdk = client(await t.issueKey(store, undefined, { writePerMinute: 1 }), {
      fetch: impl,
      maxRetryDelayMs: 60_000,
      retry: { random: () => 0 },
    });
    const post = await sdk.posts.create({ title: 'Rate-limited publish', body_html: '<p>x</p>' });
    // Each call's outcome is kept (not thrown) so that a missing retry shows in the sequence below.
    const outcome = (e: unknown) =>
      e instanceof BlogApiError ? `${e.code} after ${e.attempts} attempt(s)` : String(e);
    const published = await sdk.posts.publish(post.id).catch(outcome);
    const image = await sdk.images.upload(await png(8, 8), { filename: 'dot.png' }).catch(outcome);
    const link = await sdk.posts.createPreviewLink(post.id).catch(outcome);
    assert.deepEqual(
      sent.map((s) => `${s.method} ${s.path} ${s.status}`),
      [
        `POST /v1/blog/posts 201`,
        `POST /v1/blog/posts/${post.id}/publish 429`,
        `POST /v1/blog/posts/${post.id}/publish 200`,
        `POST /v1/media/images 429`,
        `POST /v1/media/images 201`,
        `POST /v1/blog/posts/${post.id}/preview-links 429`,
        `POST /v1/blog/posts/${post.id}/preview-links 201`,
      ],
    );
    assert.deepEqual(
      sleeps,
      [1, 3, 5].map((i) => Number(sent[i]!.retryAfter) * 1000),
      'each waited its Retry-After',
    );
    assert.ok(
      typeof published !== 'string' && typeof image !== 'string' && typeof link !== 'string',
      `outcomes: ${String(published)}, ${String(image)}, ${String(link)}`,
    );
    assert.equal(published.status, 'published');
    assert.match(image.id, /^img_/);
    assert.match(link.url, /\/blog\/preview\//);
  });

  it('a Retry-After beyond maxRetryDelayMs is not waited for: the 429 is raised at once with the wait it told', async () => {
    const store = await t.createStore();
    const { sent, impl } = recordingFetch();
    const sdk = client(await t.issueKey(store, undefined, { writePerMinute: 1 }), {
      fetch: impl,
      maxRetryDelayMs: 2_000,
    });
    const post = await sdk.posts.create({ title: 'First of the minute', body_html: '<p>1</p>' });
    t.clock.advance(1_000); // well inside the minute: Retry-After is more than 2 s
    const err = await sdk.posts.publish(post.id).catch((e: unknown) => e);
    assert.ok(err instanceof BlogApiError);
    assert.deepEqual([err.status, err.code, err.retryable, err.attempts], [429, 'rate_limited', true, 1]);
    assert.equal(err.retryAfterSeconds, Number(sent[1]!.retryAfter));
    assert.ok((err.retryAfterSeconds ?? 0) > 2, `told to wait ${err.retryAfterSeconds} s`);
    assert.equal(typeof err.requestId, 'string');
    assert.equal(sent.length, 2);
    assert.deepEqual(sleeps, [], 'did not wait');
  });

  it('never retries quota_exceeded or another non-retryable error', async () => {
    const store = await t.createStore({ changes: { posts_per_day: 1 } });
    const { sent, impl } = recordingFetch();
    const sdk = client(await t.issueKey(store), { fetch: impl });
    await sdk.posts.create({ title: 'The one post today', body_html: '<p>1</p>' });
    const quota = await sdk.posts.create({ title: 'One too many', body_html: '<p>2</p>' }).catch((e: unknown) => e);
    assert.ok(quota instanceof BlogApiError);
    assert.deepEqual([quota.status, quota.code, quota.retryable, quota.attempts], [429, 'quota_exceeded', false, 1]);
    const invalid = await sdk.posts.update(999_999, { title: '' }).catch((e: unknown) => e);
    assert.ok(invalid instanceof BlogApiError);
    assert.equal(invalid.retryable, false);
    assert.equal(sent.length, 3, 'each refused call was sent once');
    assert.deepEqual(sleeps, []);
  });

  it('retries a network failure; a create whose answer was lost is retried with the same key and creates one post', async () => {
    const { key } = await t.tenant();
    // The first GET fails before reaching the server; the first create reaches it and its answer is lost.
    const { sent, impl } = recordingFetch((call) => (call === 1 ? 'before' : call === 3 ? 'after' : null));
    const sdk = client(key, { fetch: impl });
    assert.equal((await sdk.me()).key_id.length > 0, true);
    const post = await sdk.posts.create({ title: 'Lost answer', body_html: '<p>Only once</p>' });
    assert.deepEqual(
      sent.map((s) => s.status),
      ['network error', 200, 'network error', 201],
    );
    assert.ok(
      sent[2].idempotencyKey && sent[2].idempotencyKey === sent[3].idempotencyKey,
      'the generated key is reused on the retry',
    );
    assert.equal(sleeps.length, 2);
    const all = await collect(sdk.posts.list());
    assert.deepEqual(
      all.filter((p) => p.title === 'Lost answer').map((p) => p.id),
      [post.id],
      'one post',
    );
    // A second create without a key gets a new one.
    await sdk.posts.create({ title: 'Another post', body_html: '<p>new</p>' });
    assert.notEqual(sent.at(-1)?.idempotencyKey, sent[3].idempotencyKey);
  });

  it('a network failure on a POST without a key is not retried; retries stop at maxRetries with capped full jitter', async () => {
    const { key } = await t.tenant();
    const sdk = client(key);
    const post = await sdk.posts.create({ title: 'Publish once', body_html: '<p>x</p>' });
    const flaky = recordingFetch((call) => (call === 1 ? 'after' : null));
    const once = client(key, { fetch: flaky.impl });
    const lost = await once.posts.publish(post.id).catch((e: unknown) => e);
    assert.ok(lost instanceof BlogConnectionError, String(lost));
    assert.deepEqual(
      [lost.code, lost.attempts, lost.method, lost.path],
      ['network_error', 1, 'POST', `/v1/blog/posts/${post.id}/publish`],
    );
    assert.ok(lost.cause instanceof TypeError);
    assert.equal(flaky.sent.length, 1);
    assert.deepEqual(sleeps, []);

    const down = recordingFetch(() => 'before');
    const capped = client(key, {
      fetch: down.impl,
      maxRetries: 4,
      maxRetryDelayMs: 1000,
      retry: { random: () => 0.5, baseDelayMs: 400 },
    });
    const failed = await capped.posts.get(post.id).catch((e: unknown) => e);
    assert.ok(failed instanceof BlogConnectionError, String(failed));
    assert.deepEqual([failed.code, failed.attempts, failed.requestId], ['network_error', 5, null]);
    assert.match(
      failed.message,
      /^GET \/v1\/blog\/posts\/\d+: the connection failed \(fetch failed\), after 5 attempts$/,
    );
    assert.equal(down.sent.length, 5, 'the first attempt and 4 retries');
    assert.deepEqual(sleeps, [200, 400, 500, 500], 'half of min(1000, 400 × 2^n)');
  });
});
