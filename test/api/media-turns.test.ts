// Image processing takes turns (src/modules/media/processing-turns.ts): at most
// MEDIA_PROCESSING_CONCURRENCY images are processed at once, waiting uploads are served by store
// in rotation, a wait past MEDIA_PROCESSING_WAIT_SECONDS answers 429 concurrency_limited, and
// image files are served while every turn is taken. Turns the test holds itself are taken from
// the same ProcessingTurns the uploads use, so the state "every turn taken" needs no timing.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { assertError } from '../helpers/assertions.js';
import { manualTimers } from '../helpers/manual-timers.js';
import { settled } from '../helpers/settled.js';
import { describeTenantApp, type TenantSuite } from '../helpers/tenant-app.js';
import type { Release } from '../../src/modules/media/processing-turns.js';
import { IMAGE_THREAD_NICE } from '../../src/modules/media/image-thread-priority.js';
import { assertImageObject, fetchFile, upload, uniqueJpeg } from './media-support.js';

const CAP = 2;
const WAIT_SECONDS = 5;

/** A PNG of random pixels: a few tens of milliseconds of decoding and re-encoding, distinct bytes each call. */
function noisyPng(side = 400): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** This process's threads by name, with their nice values (Linux). */
function threads(): Array<{ tid: number; name: string; nice: number }> {
  return readdirSync('/proc/self/task').map((tid) => ({
    tid: Number(tid),
    name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(),
    nice: getPriority(Number(tid)),
  }));
}

/** A gauge of GET /metrics, read through HTTP. */
async function gauge(suite: TenantSuite, name: string): Promise<number> {
  const text = (await suite.t.request({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} is reported`);
  return Number(line.slice(name.length + 1));
}

const waiting = (suite: TenantSuite) => gauge(suite, 'blog_api_image_processing_waiting');

/**
 * Settles once the waiting gauge reads `count` (the event loop turns; no time passes). An upload
 * reaches the queue after its key is read from the database, so the bound is the helper's, not a
 * tight one: on PostgreSQL under load 500 turns of cheap reads passed before the key came back.
 */
async function untilWaiting(suite: TenantSuite, count: number): Promise<void> {
  assert.ok(await settled(async () => (await waiting(suite)) === count), `${count} uploads waiting`);
}

/** An answer, and whether it has come yet. */
function tracked(answer: Promise<LightMyRequestResponse>) {
  const state = { answered: false, answer };
  void answer.finally(() => (state.answered = true));
  return state;
}

describeTenantApp(
  'image processing turns',
  { env: { MEDIA_PROCESSING_CONCURRENCY: String(CAP), MEDIA_PROCESSING_WAIT_SECONDS: String(WAIT_SECONDS) } },
  (suite) => {
    let other: { store: { handle: string }; key: string };
    /** The test's own turns, taken so that every turn is in use; given back by each test. */
    const takeEveryTurn = async (): Promise<Release[]> => {
      const turns = suite.t.ctx.media.processing;
      const held: Release[] = [];
      for (let i = 0; i < CAP; i++) held.push(await turns.acquire('test', suite.t.ctx.media.uploadTimers));
      assert.equal(turns.inProgress, CAP);
      return held;
    };

    before(async () => {
      other = await suite.t.tenant();
    });

    it('never processes more images at once than MEDIA_PROCESSING_CONCURRENCY, whatever two stores send', async () => {
      const images = await Promise.all(Array.from({ length: 8 }, () => noisyPng()));
      // sharp's own count of the images it has queued or is processing: evidence from outside the turns.
      let most = 0;
      let done = false;
      const answers = Promise.all(
        images.map((image, i) => upload(suite.t, i % 2 === 0 ? suite.key : other.key, image)),
      ).finally(() => (done = true));
      while (!done) {
        // A worker thread moves a task from queued to processing while these are read: reading
        // `process` before `queue` (two calls) can only miss a task in that step, never count it twice.
        const processing = sharp.counters().process;
        most = Math.max(most, processing + sharp.counters().queue);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      for (const res of await answers) assert.equal(res.statusCode, 201, res.body);
      assert.equal(most, CAP, 'the cap was reached and never passed');
      assert.equal(await gauge(suite, 'blog_api_image_processing_in_progress'), 0);
      assert.equal(await waiting(suite), 0);
    });

    it('gives a freed turn to the stores in rotation: one store queued first does not go before another in full', async () => {
      const [aImages, bImage] = [await Promise.all([1, 2, 3].map(() => uniqueJpeg())), await uniqueJpeg()];
      const turns = suite.t.ctx.media.processing;
      const [kept, freed] = await takeEveryTurn();
      let probeTurn: Release | undefined;
      // A queues three uploads, then B one, then a third owner (the test) one: with a single turn
      // free, the rotation serves A, B, the test; first come, first served would serve A three times first.
      const a = aImages.map((image) => tracked(upload(suite.t, suite.key, image)));
      try {
        await untilWaiting(suite, 3);
        const b = tracked(upload(suite.t, other.key, bImage));
        await untilWaiting(suite, 4);
        const probe = turns.acquire('probe', suite.t.ctx.media.uploadTimers);
        await untilWaiting(suite, 5);
        freed();
        probeTurn = await probe;
        // The probe holds the only free turn now: whatever was not served before it still waits.
        assert.equal(await waiting(suite), 2, "two of A's uploads still wait");
        assertImageObject(await b.answer, 201, {
          contentType: 'image/jpeg',
          width: 16,
          height: 16,
          handle: other.store.handle,
        });
        // B's upload was done while two of A's still waited: it did not queue behind A's three.
        assert.equal(await waiting(suite), 2, "two of A's uploads still wait after B's answer");
        const servedOfA = () => a.filter((x) => x.answered).length;
        assert.ok(await settled(() => servedOfA() === 1), "one of A's uploads was served before B's");
      } finally {
        freed();
        probeTurn?.();
        kept();
      }
      for (const x of a) assert.equal((await x.answer).statusCode, 201);
    });

    it('refuses an upload that waited MEDIA_PROCESSING_WAIT_SECONDS for a turn: 429 concurrency_limited, Retry-After, nothing stored', async () => {
      const timers = manualTimers();
      const saved = suite.t.ctx.media.uploadTimers;
      suite.t.ctx.media.uploadTimers = timers;
      const image = await uniqueJpeg();
      const held = await takeEveryTurn();
      try {
        const before = (await suite.t.request({ method: 'GET', url: '/v1/media/images', key: suite.key })).json();
        const waiter = tracked(upload(suite.t, suite.key, image));
        await untilWaiting(suite, 1);
        timers.tick(WAIT_SECONDS * 1000 - 1);
        assert.equal(await settled(() => waiter.answered, 50), false, 'no answer before the wait ends');
        timers.tick(1);
        const res = await waiter.answer;
        assertError(res, 'concurrency_limited');
        assert.equal(res.headers['retry-after'], '1');
        assert.equal(await waiting(suite), 0, 'the refused upload left the queue');
        assert.equal(timers.pending(), 0, 'no wait left behind');
        const after = (await suite.t.request({ method: 'GET', url: '/v1/media/images', key: suite.key })).json();
        assert.deepEqual(after, before, 'nothing was stored');
      } finally {
        for (const release of held) release();
        suite.t.ctx.media.uploadTimers = saved;
      }
      // Sent again once a turn is free, the same upload is stored.
      assert.equal((await upload(suite.t, suite.key, image)).statusCode, 201);
    });

    it('serves image files and API reads while every turn is taken and uploads wait', async () => {
      const stored = assertImageObject(await upload(suite.t, other.key, await uniqueJpeg()), 201, {
        contentType: 'image/jpeg',
        width: 16,
        height: 16,
        handle: other.store.handle,
      });
      const held = await takeEveryTurn();
      const waiter = tracked(upload(suite.t, suite.key, await uniqueJpeg()));
      try {
        await untilWaiting(suite, 1);
        const file = await fetchFile(suite.t, stored.path);
        assert.equal(file.statusCode, 200);
        assert.equal(file.rawPayload.length, stored.bytes);
        const head = await suite.t.app.inject({ method: 'HEAD', url: stored.path });
        assert.equal(head.statusCode, 200);
        const read = await suite.t.request({ method: 'GET', url: `/v1/media/images/${stored.id}`, key: other.key });
        assert.equal(read.statusCode, 200, read.body);
        assert.equal(waiter.answered, false, 'the upload still waits for its turn');
      } finally {
        for (const release of held) release();
      }
      assert.equal((await waiter.answer).statusCode, 201);
    });

    it(
      'processes images on threads of lower priority than the rest of the process (Linux)',
      { skip: process.platform !== 'linux' && 'thread priorities are read from /proc' },
      async () => {
        // The main thread's id is the process id (its name differs between Node lines).
        const before = threads().find((thread) => thread.tid === process.pid)!.nice;
        assert.equal((await upload(suite.t, suite.key, await noisyPng())).statusCode, 201);
        const workers = threads().filter((thread) => thread.name === 'libvips worker');
        assert.ok(workers.length > 0, 'libvips has worker threads');
        assert.deepEqual(
          workers.map((thread) => thread.nice),
          workers.map(() => IMAGE_THREAD_NICE),
        );
        // Every other thread keeps its own: the event loop, the thread pool that reads files, V8's.
        const others = threads().filter((thread) => thread.name !== 'libvips worker');
        assert.ok(others.some((thread) => thread.tid === process.pid));
        assert.deepEqual(
          others.filter((thread) => thread.nice !== before).map((thread) => `${thread.name} ${thread.nice}`),
          [],
        );
      },
    );
  },
);
