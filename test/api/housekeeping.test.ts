// Housekeeping on both engines with the local media folder: what is past retention goes, what
// is not stays (the clock is injected), upload leftovers go at start and in a pass, files no
// image accounts for and removals a deletion still owes are finished, one instance runs a pass
// at a time, and `blog-api housekeeping` prints the counts.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { START_TIME } from '../helpers/test-app.js';
import { secondInstance } from '../helpers/second-instance.js';
import { createPost } from '../helpers/posts.js';
import {
  HousekeepingService,
  housekeepingJob,
  LEASE_TTL_MS,
  type HousekeepingLog,
  type PassResult,
} from '../../src/modules/housekeeping/index.js';
import { PeriodicJobs } from '../../src/lib/periodic.js';
import { LocalMediaStore, MediaService, type MediaStore } from '../../src/modules/media/index.js';
import { deleteImage, upload, uniqueJpeg } from './media-support.js';
import { runCli as cli } from '../helpers/cli.js';
import { unusedPort } from '../helpers/ports.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const MINUTE = 60_000;

/** Resolves once `done()` holds, checking after each turn of the event loop (no timers). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}
const HOUR = 60 * MINUTE;
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** A store that waits at `method` until released, and says when it got there. */
function gatedStore(inner: MediaStore, method: 'list' | 'remove') {
  let reached!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const store: MediaStore = {
    put: (h, b, d) => inner.put(h, b, d),
    stat: (h, b) => inner.stat(h, b),
    open: (h, b) => inner.open(h, b),
    check: () => inner.check(),
    removeLeftovers: (o) => inner.removeLeftovers(o),
    close: () => inner.close(),
    list: async (a, l) => {
      if (method === 'list') {
        reached();
        await gate;
      }
      return inner.list(a, l);
    },
    remove: async (h, b) => {
      if (method === 'remove') {
        reached();
        await gate;
      }
      return inner.remove(h, b);
    },
  };
  return { store, arrived, release };
}

function removedCounts(result: PassResult) {
  assert.equal(result.ran, true, JSON.stringify(result));
  return result.ran ? result.removed : undefined;
}

describeTenantApp('housekeeping', (suite) => {
  const now = () => suite.t.clock.now().getTime();
  const dir = () => {
    const path = join(suite.t.config.mediaDir, suite.store.handle);
    mkdirSync(path, { recursive: true });
    return path;
  };
  /** Writes a file in the store's media folder, last modified at `modifiedAt` (ms). */
  const writeFile = (name: string, modifiedAt: number) => {
    const path = join(dir(), name);
    writeFileSync(path, 'x');
    utimesSync(path, new Date(modifiedAt), new Date(modifiedAt));
    return path;
  };
  const count = async (
    table: 'idempotency_records' | 'content_fingerprints' | 'delete_confirmations' | 'media_deletions',
  ) =>
    Number(
      (
        await suite.t.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('removes idempotency records, content fingerprints and delete tokens past retention, and keeps the rest', async () => {
    const t0 = Date.parse(START_TIME);
    // Issuing a token also clears expired ones, so both are issued before the first expires.
    const first = await createPost(suite.t, suite.key, {}, 'idem-first');
    suite.t.clock.set(t0 + 4 * MINUTE);
    assert.equal(
      (await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${first.id}`, key: suite.key })).statusCode,
      409,
      'delete token issued',
    );
    suite.t.clock.set(t0 + 6 * MINUTE);
    const secondBody = { title: 'Second', body_html: '<p>second</p>' };
    const second = await createPost(suite.t, suite.key, secondBody, 'idem-second');
    suite.t.clock.set(t0 + 8 * MINUTE);
    assert.equal(
      (await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${second.id}`, key: suite.key })).statusCode,
      409,
    );

    // T0 + 11 min: the first fingerprint (11 min old) and the first token (expired at +9) go;
    // the second fingerprint (5 min) and token (valid until +13) stay; no record is 24 h old.
    suite.t.clock.set(t0 + 11 * MINUTE);
    assert.deepEqual(removedCounts(await suite.t.ctx.housekeeping.runPass()), {
      idempotency_records: 0,
      content_fingerprints: 1,
      delete_tokens: 1,
      upload_temp_files: 0,
      orphaned_media_objects: 0,
      failed_media_deletions: 0,
      webhook_deliveries: 0,
      webhook_events: 0,
    });
    assert.deepEqual(
      (await suite.t.ctx.db.selectFrom('content_fingerprints').select('post_id').execute()).map((r) =>
        Number(r.post_id),
      ),
      [second.id],
    );
    assert.deepEqual(
      (await suite.t.ctx.db.selectFrom('delete_confirmations').select('post_id').execute()).map((r) =>
        Number(r.post_id),
      ),
      [second.id],
    );
    assert.equal(await count('idempotency_records'), 2);

    // Exactly 24 h after the first create its record goes; the second's (6 min younger) stays
    // and still replays.
    suite.t.clock.set(t0 + 24 * HOUR);
    const day = removedCounts(await suite.t.ctx.housekeeping.runPass());
    assert.equal(day?.idempotency_records, 1);
    assert.equal(day?.content_fingerprints, 1);
    assert.equal(day?.delete_tokens, 1);
    const rows = await suite.t.ctx.db.selectFrom('idempotency_records').select('idem_key').execute();
    assert.deepEqual(
      rows.map((r) => r.idem_key),
      ['idem-second'],
    );
    const replay = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key: suite.key,
      headers: { 'idempotency-key': 'idem-second' },
      body: secondBody,
    });
    assert.equal(replay.statusCode, 201);
    assert.equal(replay.json().id, second.id, 'a record within retention still replays');
    assert.equal(
      removedCounts(await suite.t.ctx.housekeeping.runPass())?.idempotency_records,
      0,
      'nothing is removed twice',
    );
  });

  it('removes upload temp files at start when their writer is gone, and any in a pass once an hour old', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const abandoned = writeFile(`.upload-${HOST_TAG}-${deadPid}-abandoned1.tmp`, now());
    const writing = writeFile(`.upload-${HOST_TAG}-${process.pid}-writing1.tmp`, now());
    const old = writeFile('.upload-oldstylename12345.tmp', now() - 2 * HOUR);
    const young = writeFile(`.upload-0badc0de-1-elsewhere1.tmp`, now() - 30 * MINUTE);

    // The server's housekeeping job, on timers that never fire: only its start runs.
    const service = new HousekeepingService(suite.t.ctx.db, suite.t.clock, suite.t.ctx.media.files, 60_000);
    const jobs = new PeriodicJobs([housekeepingJob(service)], {
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    });
    jobs.start();
    await jobs.stop();
    assert.deepEqual(
      [existsSync(abandoned), existsSync(old), existsSync(writing), existsSync(young)],
      [false, false, true, true],
    );

    // 31 minutes on, the file from elsewhere is an hour old; the live writer's file is not.
    suite.t.clock.advance(31 * MINUTE);
    assert.equal(removedCounts(await suite.t.ctx.housekeeping.runPass())?.upload_temp_files, 1);
    assert.deepEqual([existsSync(young), existsSync(writing)], [false, true]);
  });

  it('removes media files no image accounts for once they are an hour old, never a live image’s file', async () => {
    const live = (await upload(suite.t, suite.key, await uniqueJpeg())).json();
    const livePath = join(dir(), live.basename);
    utimesSync(livePath, new Date(now() - 3 * HOUR), new Date(now() - 3 * HOUR));
    const orphan = writeFile('aaaaaaaaaaaaaaaaaaaaaaaa.jpg', now() - 2 * HOUR);
    const recent = writeFile('bbbbbbbbbbbbbbbbbbbbbbbb.png', now() - 30 * MINUTE);
    const notAnImage = writeFile('notes.txt', now() - 5 * HOUR);

    const result = removedCounts(await suite.t.ctx.housekeeping.runPass());
    assert.equal(result?.orphaned_media_objects, 1);
    assert.deepEqual(
      [existsSync(orphan), existsSync(recent), existsSync(livePath), existsSync(notAnImage)],
      [false, true, true, true],
    );
    assert.equal((await suite.t.app.inject({ method: 'GET', url: live.path })).statusCode, 200);

    suite.t.clock.advance(31 * MINUTE);
    assert.equal(removedCounts(await suite.t.ctx.housekeeping.runPass())?.orphaned_media_objects, 1);
    assert.equal(existsSync(recent), false);
  });

  it('finishes removing the file of a deleted image when the deletion stopped before removing it', async () => {
    const image = (await upload(suite.t, suite.key, await uniqueJpeg())).json();
    const path = join(dir(), image.basename);
    // The instance that deletes stalls right after committing the deletion (as if it died).
    const stalled = gatedStore(new LocalMediaStore(suite.t.config.mediaDir), 'remove');
    const original = suite.t.ctx.media;
    suite.t.ctx.media = new MediaService(
      suite.t.ctx.db,
      suite.t.clock,
      stalled.store,
      suite.t.config.publicBaseUrl,
      original.settings,
    );
    const deleting = deleteImage(suite.t, suite.key, image.id);
    await stalled.arrived;
    suite.t.ctx.media = original;
    assert.equal(await count('media_deletions'), 1);
    assert.ok(existsSync(path));

    // Within the grace the deleting request may still be at work: the file stays.
    suite.t.clock.advance(4 * MINUTE);
    assert.equal(removedCounts(await suite.t.ctx.housekeeping.runPass())?.failed_media_deletions, 0);
    assert.ok(existsSync(path));
    suite.t.clock.advance(2 * MINUTE);
    assert.equal(removedCounts(await suite.t.ctx.housekeeping.runPass())?.failed_media_deletions, 1);
    assert.equal(existsSync(path), false);
    assert.equal(await count('media_deletions'), 0);

    stalled.release();
    assert.equal((await deleting).statusCode, 204);
  });

  it('lets one instance run a pass at a time, and another take over a lease left to expire', async () => {
    const other = await secondInstance(suite.t);
    try {
      const gated = gatedStore(new LocalMediaStore(suite.t.config.mediaDir), 'list');
      const first = new HousekeepingService(suite.t.ctx.db, suite.t.clock, gated.store, 60_000);
      const running = first.runPass();
      await gated.arrived;
      assert.deepEqual(await other.ctx.housekeeping.runPass(), {
        ran: false,
        reason: 'another instance is running housekeeping',
      });
      assert.deepEqual(await suite.t.ctx.housekeeping.runPass(), {
        ran: false,
        reason: 'another instance is running housekeeping',
      });
      gated.release();
      const done = await running;
      assert.equal(done.ran && done.complete, true);
      assert.equal((await other.ctx.housekeeping.runPass()).ran, true, 'the lease is free once the pass ends');

      // A holder that stops renewing (stalled or dead) loses the lease after its TTL; when it
      // comes back it notices at its next batch and stops.
      const stuck = gatedStore(new LocalMediaStore(suite.t.config.mediaDir), 'list');
      const stalledPass = new HousekeepingService(suite.t.ctx.db, suite.t.clock, stuck.store, 60_000).runPass();
      await stuck.arrived;
      suite.t.clock.advance(LEASE_TTL_MS - 1);
      assert.equal((await other.ctx.housekeeping.runPass()).ran, false);
      suite.t.clock.advance(1);
      const takeover = await other.ctx.housekeeping.runPass();
      assert.equal(takeover.ran && takeover.complete, true);
      stuck.release();
      const late = await stalledPass;
      assert.equal(
        late.ran && late.complete,
        false,
        'the stalled holder stopped instead of running beside the new one',
      );
    } finally {
      await other.close();
    }
  });

  it('runs a pass every interval (plus up to a tenth of it at random) once started, and stops', async () => {
    const lines: string[] = [];
    const log: HousekeepingLog = { info: (_d, m) => lines.push(m), warn: (_d, m) => lines.push(`warn: ${m}`) };
    const waits: Array<{ ms: number; run: () => void }> = [];
    const timers = {
      setTimeout: (run: () => void, ms: number) => waits.push({ ms, run }),
      clearTimeout: () => undefined,
    };
    const interval = 300_000;
    const service = new HousekeepingService(suite.t.ctx.db, suite.t.clock, suite.t.ctx.media.files, interval);
    const jobs = new PeriodicJobs([housekeepingJob(service)], { timers, random: () => 0.99999 });
    jobs.start(log);
    await until(() => waits.length === 1);
    assert.deepEqual(
      waits.map((w) => w.ms),
      [interval + interval / 10],
    );
    assert.deepEqual(lines, []);
    waits[0]!.run();
    await until(() => waits.length === 2);
    assert.deepEqual(lines, ['housekeeping pass']);
    await jobs.stop();
  });

  it('`blog-api housekeeping` finishes every other kind when the object store cannot be listed: media_errors, complete false, exit 0', async () => {
    await createPost(suite.t, suite.key);
    const closed = await unusedPort();
    const res = await cli(
      {
        DATABASE_URL: suite.t.config.database.url,
        MEDIA_STORE: 's3',
        S3_BUCKET: 'blog-media',
        S3_ENDPOINT: `http://127.0.0.1:${closed}`,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        S3_CONNECT_TIMEOUT_MS: '500',
        S3_REQUEST_TIMEOUT_MS: '1000',
      },
      'housekeeping',
    );
    assert.equal(res.code, 0, res.stderr);
    const out = JSON.parse(res.stdout);
    assert.ok(out.removed.idempotency_records >= 1 && out.removed.content_fingerprints >= 1, res.stdout);
    assert.ok(out.media_errors >= 1, res.stdout);
    assert.equal(out.complete, false);
    assert.equal(await count('idempotency_records'), 0);
  });

  it('`blog-api housekeeping` runs one pass and prints the counts per kind', async () => {
    // Rows written at the test clock's time are long past retention for the real clock.
    await createPost(suite.t, suite.key);
    const res = await cli(
      { DATABASE_URL: suite.t.config.database.url, MEDIA_DIR: suite.t.config.mediaDir },
      'housekeeping',
    );
    assert.equal(res.code, 0, res.stderr);
    const out = JSON.parse(res.stdout);
    assert.deepEqual(Object.keys(out.removed), [
      'idempotency_records',
      'content_fingerprints',
      'delete_tokens',
      'upload_temp_files',
      'orphaned_media_objects',
      'failed_media_deletions',
      'webhook_deliveries',
      'webhook_events',
    ]);
    assert.ok(out.removed.idempotency_records >= 1 && out.removed.content_fingerprints >= 1);
    assert.deepEqual([out.media_errors, out.complete], [0, true]);
    assert.equal(await count('idempotency_records'), 0);
    assert.equal(await count('content_fingerprints'), 0);
    assert.ok(readdirSync(dir()).every((name) => !name.startsWith('.upload-') || name.includes(`-${process.pid}-`)));
  });
});
