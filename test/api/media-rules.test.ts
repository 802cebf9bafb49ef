// POST /v1/media/images: de-duplication, daily quota, audit events, concurrent twins, and
// bodies that are too large or never finish (streamed, not buffered).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describeEachEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { settled } from '../helpers/settled.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { LocalMediaStore, MediaService, type MediaStore } from '../../src/modules/media/index.js';
import type { Store } from '../../src/modules/stores/index.js';
import { assertImageObject, deleteImage, upload, uniqueJpeg } from './media-support.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const filesOf = (t: TestApp, handle: string): string[] => {
  try {
    return readdirSync(join(t.config.mediaDir, handle)).sort();
  } catch {
    return [];
  }
};

/**
 * A multipart body whose file part streams `fileBytes` lazily; `pulled()` says how much was read,
 * and `stalled` settles when the reader asks for more past `stallAfter` (everything sent was taken).
 */
function streamedUpload(fileBytes: number, opts: { stallAfter?: number } = {}) {
  let reachedStall: () => void = () => undefined;
  const stalled = new Promise<void>((resolve) => (reachedStall = resolve));
  const boundary = '----media-stream-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0xab);
  chunk[0] = 0xff;
  chunk[1] = 0xd8;
  chunk[2] = 0xff;
  let sent = 0;
  let headSent = false;
  let done = false;
  const stream = new Readable({
    read() {
      if (done) return;
      if (!headSent) {
        headSent = true;
        this.push(head);
        return;
      }
      if (opts.stallAfter !== undefined && sent >= opts.stallAfter) return reachedStall(); // never pushes again
      if (sent >= fileBytes) {
        done = true;
        this.push(tail);
        this.push(null);
        return;
      }
      const n = Math.min(chunk.length, fileBytes - sent);
      sent += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
  return { stream, contentType: `multipart/form-data; boundary=${boundary}`, pulled: () => sent, stalled };
}

describeTenantApp('POST /v1/media/images: dedup, quota, audit', { tenant: false }, (suite) => {
  it('answers 200 with the same image when the store uploads the same bytes again', async () => {
    const { store, key } = await suite.t.tenant();
    const input = await uniqueJpeg();
    const first = assertImageObject(await upload(suite.t, key, input, { filename: 'a.jpg' }), 201, {
      contentType: 'image/jpeg',
      width: 16,
      height: 16,
      handle: store.handle,
    });
    const again = assertImageObject(await upload(suite.t, key, input, { filename: 'other-name.png' }), 200, {
      contentType: 'image/jpeg',
      width: 16,
      height: 16,
      handle: store.handle,
    });
    assert.deepEqual(again, first);
    assert.deepEqual(filesOf(suite.t, store.handle), [first.basename]);

    // Another store with the same bytes gets its own image.
    const other = await suite.t.tenant();
    const theirs = assertImageObject(await upload(suite.t, other.key, input), 201, {
      contentType: 'image/jpeg',
      width: 16,
      height: 16,
      handle: other.store.handle,
    });
    assert.notEqual(theirs.id, first.id);
  });

  it('counts new images against quotas.images_per_day; a dedup replay costs nothing', async () => {
    const store = await suite.t.createStore({ changes: { images_per_day: 2 } });
    const key = await suite.t.issueKey(store);
    const a = await uniqueJpeg();
    assert.equal((await upload(suite.t, key, a)).statusCode, 201);
    assert.equal((await upload(suite.t, key, await uniqueJpeg())).statusCode, 201);
    assert.equal((await upload(suite.t, key, a)).statusCode, 200);

    const refused = await upload(suite.t, key, await uniqueJpeg());
    assertError(refused, 'quota_exceeded', [{ field: 'quotas.images_per_day', issue: 'daily limit of 2 reached' }]);
    // 10:00 in Taipei → 14 hours to the next Taipei midnight.
    assert.equal(refused.headers['retry-after'], String(14 * 3600));
    assert.equal(filesOf(suite.t, store.handle).length, 2, 'the refused upload left no file behind');
    assert.equal((await upload(suite.t, key, a)).statusCode, 200, 'a replay still answers once the quota is used up');

    const me = (await suite.t.request({ method: 'GET', url: '/v1/me', key })).json();
    assert.deepEqual(me.quotas.images_per_day, {
      limit: 2,
      used: 2,
      remaining: 0,
      resets_at: '2026-09-16T00:00:00+08:00',
    });

    // The next Taipei day has a fresh allowance.
    suite.t.clock.advance(14 * 3600 * 1000);
    assert.equal((await upload(suite.t, key, await uniqueJpeg())).statusCode, 201);
    suite.t.clock.set('2026-09-15T02:00:00.000Z');
  });

  it('records image.uploaded once per new image and image.deleted per deletion', async () => {
    const { key } = await suite.t.tenant();
    const input = await uniqueJpeg();
    const created = await upload(suite.t, key, input);
    const image = created.json();
    await upload(suite.t, key, input); // replay: no event
    const deleted = await deleteImage(suite.t, key, image.id);
    assert.equal(deleted.statusCode, 204);
    const events = (await suite.t.request({ method: 'GET', url: '/v1/audit/events?resource_type=image', key })).json()
      .data;
    assert.deepEqual(
      events.map((e: any) => [e.action, e.resource_type, e.resource_id, e.changes, e.request_id]),
      [
        ['image.deleted', 'image', image.id, [], deleted.headers['x-request-id']],
        ['image.uploaded', 'image', image.id, ['file'], created.headers['x-request-id']],
      ],
    );
    assert.equal(events[0].key_id, key.slice(9, 17));
    assert.equal(events[0].application, 'test-app');
  });

  it('stores one image when the same bytes arrive five times at once', async () => {
    const { store, key } = await suite.t.tenant();
    const input = await uniqueJpeg({ r: 200, g: 30, b: 90 }, 64);
    // Count file writes and removals: requests that lost the race on the unique index must
    // remove the file they wrote.
    const local = new LocalMediaStore(suite.t.config.mediaDir);
    let puts = 0;
    let removes = 0;
    const counting: MediaStore = {
      put: (h, b, d) => (puts++, local.put(h, b, d)),
      remove: (h, b) => (removes++, local.remove(h, b)),
      stat: (h, b) => local.stat(h, b),
      open: (h, b) => local.open(h, b),
      check: () => local.check(),
      list: (a, l) => local.list(a, l),
      removeLeftovers: (o) => local.removeLeftovers(o),
      close: () => local.close(),
    };
    const original = suite.t.ctx.media;
    suite.t.ctx.media = new MediaService(
      suite.t.ctx.db,
      suite.t.clock,
      counting,
      suite.t.config.publicBaseUrl,
      original.settings,
    );
    const results = await Promise.all(Array.from({ length: 5 }, () => upload(suite.t, key, input))).finally(
      () => (suite.t.ctx.media = original),
    );
    assert.equal(puts - removes, 1, `${puts} files written, ${removes} removed`);
    const statuses = results.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => r.json().id));
    assert.equal(ids.size, 1);
    const rows = await suite.t.ctx.db.selectFrom('images').select('id').where('store_id', '=', store.id).execute();
    assert.equal(rows.length, 1);
    assert.deepEqual(filesOf(suite.t, store.handle), [results[0].json().basename], 'the losers’ files were cleaned up');
    const me = (await suite.t.request({ method: 'GET', url: '/v1/me', key })).json();
    assert.equal(me.quotas.images_per_day.used, 1);
  });

  it('gives the same bytes a new id and a new file name after deletion', async () => {
    const { store, key } = await suite.t.tenant();
    const input = await uniqueJpeg();
    const first = (await upload(suite.t, key, input)).json();
    assert.equal((await deleteImage(suite.t, key, first.id)).statusCode, 204);
    const second = assertImageObject(await upload(suite.t, key, input), 201, {
      contentType: 'image/jpeg',
      width: 16,
      height: 16,
      handle: store.handle,
    });
    assert.notEqual(second.id, first.id);
    assert.notEqual(second.basename, first.basename);
    assert.deepEqual(filesOf(suite.t, store.handle), [second.basename]);
  });
});

describeEachEngine('POST /v1/media/images: large and stalled bodies', (target) => {
  let t: TestApp;
  let store: Store;
  let key: string;
  before(async () => {
    t = await startTestApp(target);
    store = await t.createStore({ changes: { image_max_bytes: 256 * 1024 } });
    key = await t.issueKey(store, ['write_media']);
  });
  after(() => t?.close());

  it('refuses a large streamed body with 413 and asks to close the connection', async () => {
    const body = streamedUpload(64 * 1024 * 1024);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/media/images',
      headers: { authorization: `Bearer ${key}`, 'content-type': body.contentType },
      payload: body.stream,
    });
    assertError(res, 'image_too_large', [
      { field: 'file', issue: 'is larger than 262144 bytes (limits.image_max_bytes)' },
    ]);
    // inject() drains the rest of its payload after the answer, so how much was read is
    // measured over a real connection below.
    assert.equal(res.headers.connection, 'close');
    body.stream.destroy();
    assert.deepEqual(filesOf(t, store.handle), []);
  });

  /**
   * Sends an upload that stalls after 64 KiB, on upload timers the test moves by hand, lets
   * everything sent reach the reader, then moves time to just before `limitMs` (no answer yet)
   * and onto it (the answer).
   */
  async function stalledUpload(limitMs: number) {
    const timers = manualTimers();
    const saved = t.ctx.media.uploadTimers;
    t.ctx.media.uploadTimers = timers;
    try {
      const body = streamedUpload(200 * 1024, { stallAfter: 64 * 1024 });
      let answered = false;
      const answer = t.app
        .inject({
          method: 'POST',
          url: '/v1/media/images',
          headers: { authorization: `Bearer ${key}`, 'content-type': body.contentType },
          payload: body.stream,
        })
        .finally(() => (answered = true));
      await body.stalled;
      // What was sent is still passing through the multipart parser: let it arrive.
      await settled(() => false, 50);
      timers.tick(limitMs - 1);
      assert.equal(await settled(() => answered, 50), false, `no answer before ${limitMs} ms`);
      timers.tick(1);
      assert.ok(await settled(() => answered, 500), `an answer at ${limitMs} ms`);
      const res = await answer;
      body.stream.destroy();
      assert.equal(timers.pending(), 0, 'the answer cleared both limits');
      return res;
    } finally {
      t.ctx.media.uploadTimers = saved;
    }
  }

  it('abandons a stalled upload after the idle timeout (422, connection closed)', async () => {
    const settings = t.ctx.media.settings;
    const saved = { ...settings };
    settings.uploadIdleTimeoutMs = 300;
    try {
      const res = await stalledUpload(300);
      assertError(res, 'validation_failed', [
        { field: 'file', issue: 'was not received completely: no data arrived for 0.3 seconds' },
      ]);
      assert.equal(res.headers.connection, 'close');
    } finally {
      Object.assign(settings, saved);
    }
  });

  it('abandons an upload that does not finish within the total time', async () => {
    const settings = t.ctx.media.settings;
    const saved = { ...settings };
    settings.uploadTotalTimeoutMs = 400;
    try {
      const res = await stalledUpload(400);
      assertError(res, 'validation_failed', [
        { field: 'file', issue: 'was not received completely within 0.4 seconds' },
      ]);
    } finally {
      Object.assign(settings, saved);
    }
  });

  it('refuses an oversized body over a real connection too, and keeps serving', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const body = streamedUpload(64 * 1024 * 1024);
    let serverSide: Socket | undefined;
    t.app.server.once('connection', (socket: Socket) => (serverSide = socket));
    let client: ClientRequest | undefined;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let arrived = false;
      const req = (client = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/media/images',
          headers: { authorization: `Bearer ${key}`, 'content-type': body.contentType },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            arrived = true;
            resolve({ status: res.statusCode ?? 0, body: text });
          });
        },
      ));
      // The server answers and closes while the client is still sending; a write error after
      // the answer arrived is expected.
      req.on('error', (err) => (arrived ? undefined : reject(err)));
      body.stream.pipe(req);
    }).finally(() => body.stream.destroy());
    assert.equal(answer.status, 413, answer.body);
    assert.equal(JSON.parse(answer.body).error.code, 'image_too_large');
    // What the client managed to send before the close: socket buffers, not the whole body.
    assert.ok(body.pulled() < 16 * 1024 * 1024, `sent ${body.pulled()} bytes of a 64 MiB body`);
    console.log(
      `# oversized upload: client sent ${body.pulled()} of ${64 * 1024 * 1024} bytes before the server closed`,
    );
    // The client goes away: the lingering connection reads on, sees it, and is closed at once
    // rather than waiting for the body timeout's sweep. Left paused by the refused upload's
    // parser, it was read by no one (and a shutdown waited on it).
    client!.destroy();
    assert.ok(await settled(() => serverSide?.destroyed === true), 'the server closed its side once the client left');
    const ok = await fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(ok.status, 200);
  });
});
