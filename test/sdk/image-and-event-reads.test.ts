// The SDK's image list and read and its event read (the store-blog-sdk workspace package, as
// built by npm install) against a real server on a loopback port, on both engines: images.list()
// walks every page, images.get() and events.get() answer as the server does, and an event is
// found by the webhook-id header of a real delivery received by a real HTTP receiver.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { BlogApiError, BlogClient, type FeedEvent, type Image } from 'store-blog-sdk';
import { describeEachEngine } from '../helpers/engines.js';
import type { TestApp } from '../helpers/test-app.js';
import type { Receiver } from '../helpers/webhook-receiver.js';
import { collect, png, startSdkServer, type SdkServer } from '../helpers/sdk-server.js';

describeEachEngine('store-blog-sdk: image and event reads against a real server', (target) => {
  let server: SdkServer;
  let t: TestApp;
  let baseUrl: string;
  let rx: Receiver;
  /** GETs the client sent, as `path?query`. */
  let sent: string[];

  before(async () => {
    server = await startSdkServer(target);
    ({ t, baseUrl, rx } = server);
  });
  after(() => server?.close());

  const client = (apiKey: string) => {
    sent = [];
    return new BlogClient({
      baseUrl,
      apiKey,
      onRequest: (event) => {
        const url = new URL(event.url);
        if (event.method === 'GET') sent.push(`${url.pathname}${url.search}`);
      },
    });
  };

  it('images.list() pages through every image, newest first; images.get() answers each as the upload did', async () => {
    const { key } = await t.tenant({ media: true });
    const sdk = client(key);
    const uploaded: Image[] = [];
    for (let shade = 0; shade < 5; shade++) {
      t.clock.advance(1000);
      uploaded.unshift(await sdk.images.upload(await png(4, 4, shade * 40)));
    }
    sent = [];
    assert.deepEqual(await collect(sdk.images.list({ limit: 2 })), uploaded);
    assert.equal(sent.length, 3, 'three pages of two');
    assert.deepEqual(
      sent.map((s) => s.startsWith('/v1/media/images?limit=2')),
      [true, true, true],
    );
    assert.deepEqual(await sdk.images.list().autoPagingToArray({ limit: 3 }), uploaded.slice(0, 3));
    const page = await sdk.images.listPage({ limit: 4 });
    assert.deepEqual(page.data, uploaded.slice(0, 4));
    assert.deepEqual(
      await collect(sdk.images.list({ limit: 4, cursor: page.meta.next_cursor ?? undefined })),
      uploaded.slice(4),
    );
    for (const image of uploaded) assert.deepEqual(await sdk.images.get(image.id), image);

    await sdk.images.delete(uploaded[0].id);
    const gone = await sdk.images.get(uploaded[0].id).catch((e: unknown) => e);
    assert.ok(gone instanceof BlogApiError);
    assert.deepEqual([gone.status, gone.code, gone.retryable], [404, 'not_found', false]);
    assert.deepEqual(await collect(sdk.images.list()), uploaded.slice(1));

    const { key: offKey } = await t.tenant({ media: false });
    const off = await client(offKey)
      .images.list()
      .autoPagingToArray({ limit: 1 })
      .catch((e: unknown) => e);
    assert.ok(off instanceof BlogApiError);
    assert.deepEqual([off.status, off.code], [404, 'feature_unavailable']);
  });

  it('events.get() finds an event by the webhook-id of its delivery, as the feed lists it', async () => {
    rx.clear();
    const { key } = await t.tenant();
    const sdk = client(key);
    await sdk.webhooks.create({ url: rx.url, events: ['post.created'] });
    const post = await sdk.posts.create({ title: 'Find my event', body_html: '<p>e</p>' });
    await t.ctx.webhookWorker.runOnce();
    assert.equal(rx.received.length, 1);
    const webhookId = String(rx.received[0].headers['webhook-id']);

    const event = await sdk.events.get(webhookId);
    const listed: FeedEvent[] = await collect(sdk.events.list());
    assert.deepEqual(
      listed.find((e) => e.id === webhookId),
      event,
    );
    assert.equal(event.type, 'post.created');
    assert.deepEqual((event.data as { id: number }).id, post.id);

    const unknown = await sdk.events.get('msg_aaaaaaaaaaaaaaaaaaaaaaaa').catch((e: unknown) => e);
    assert.ok(unknown instanceof BlogApiError);
    assert.deepEqual([unknown.status, unknown.code], [404, 'not_found']);
    // Another store's key does not see it.
    const other = client((await t.tenant()).key);
    const foreign = await other.events.get(webhookId).catch((e: unknown) => e);
    assert.ok(foreign instanceof BlogApiError && foreign.code === 'not_found');
  });
});
