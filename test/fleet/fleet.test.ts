// The fleet as it is deployed: three API processes on one PostgreSQL, one Redis and one
// S3-compatible object store (a real s3rver), each request sent to a different process as a load
// balancer would. Upload through one and serve from the others, delete through a third, limits
// and quotas shared by all three, readiness of a process that loses Redis or its database, and
// SIGTERM with an upload in flight.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { assertError } from '../helpers/assertions.js';
import { describeOnPostgres, postgresEngine } from '../helpers/engines.js';
import { send, type FetchedResponse } from '../helpers/fetch-response.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { startServerProcess, waitUntilRefused, type ServerProcess } from '../helpers/server-process.js';
import { requestInFlight, startSlowUpload } from '../helpers/slow-upload.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { uniqueJpeg } from '../api/media-support.js';

const redisUp = await redisReachable();
if (!redisUp && process.env.REQUIRE_REDIS === '1')
  throw new Error(`REQUIRE_REDIS=1 but Redis is not reachable at ${TEST_REDIS_URL}`);
const redisSkip = redisUp ? undefined : `Redis not reachable at ${TEST_REDIS_URL}`;
const skip = postgresEngine.skip ?? redisSkip;
if (skip) console.log(`# skipping the fleet suite: ${skip}`);

function imageForm(data: Buffer): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

describeOnPostgres(
  'a fleet of three processes on PostgreSQL, Redis and S3',
  (postgres) => {
    let t: TestApp;
    let s3: TestS3;
    let env: Record<string, string>;
    const servers: ServerProcess[] = [];
    const proxies: TcpProxy[] = [];
    const at = (i: number) => servers[i % servers.length].baseUrl;

    before(async () => {
      s3 = await startS3();
      // The test's own app migrates the database and issues keys through the real services; the
      // processes then start as a rolling deploy starts them, without migrating.
      t = await startTestApp(postgres);
      env = {
        DATABASE_URL: t.config.database.url,
        REDIS_URL: TEST_REDIS_URL,
        ...s3.env,
        S3_PREFIX: `fleet-${randomLowerAlnum(8)}/`,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        PUBLIC_BASE_URL: 'http://blog.test',
        MIGRATE_ON_START: 'false',
        HEALTH_CHECK_TIMEOUT_MS: '500',
        SHUTDOWN_GRACE_MS: '20000',
      };
      for (let i = 0; i < 3; i++) servers.push(await startServerProcess(env));
    });
    after(async () => {
      for (const s of servers) await s.kill();
      for (const p of proxies) await p.close();
      await t?.close();
      await s3?.close();
    });

    /** The object key of an image in the bucket. */
    const objectKey = (image: { path: string }) => `${env.S3_PREFIX}${image.path.split('/').slice(-2).join('/')}`;

    it('starts with JSON log lines only: no deprecation warning or other text a log parser would trip on', () => {
      for (const [i, server] of servers.entries()) {
        const lines = (server.stdout() + server.stderr()).split('\n').filter((line) => line.trim() !== '');
        assert.ok(lines.length > 0, `process ${i} logged its start`);
        for (const line of lines)
          assert.doesNotThrow(() => JSON.parse(line), `process ${i} printed a non-JSON line: ${line}`);
      }
    });

    it('serves an image uploaded through one process from the other two, byte for byte', async () => {
      const { key } = await t.tenant();
      const uploaded = await send(at(0), 'POST', '/v1/media/images', {
        key,
        form: imageForm(await uniqueJpeg({ r: 1, g: 2, b: 3 })),
      });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const image = uploaded.json();
      const stored = await s3.object(objectKey(image));
      assert.ok(stored, 'the object is in the bucket');
      assert.equal(stored.length, image.bytes);

      const etags = new Set<string>();
      for (const i of [1, 2]) {
        const served = await send(at(i), 'GET', image.path);
        assert.equal(served.statusCode, 200);
        assert.equal(served.headers['content-type'], image.content_type);
        assert.ok(served.rawPayload.equals(stored), `process ${i} serves the stored bytes`);
        etags.add(String(served.headers.etag));
      }
      assert.equal(etags.size, 1, 'every process gives the same validator');
      const revalidated = await send(at(2), 'GET', image.path, { headers: { 'if-none-match': [...etags][0] } });
      assert.equal(revalidated.statusCode, 304);
    });

    it('deletes through a third process: 404 everywhere and the object gone', async () => {
      const { key } = await t.tenant();
      const image = (
        await send(at(0), 'POST', '/v1/media/images', { key, form: imageForm(await uniqueJpeg({ r: 9, g: 8, b: 7 })) })
      ).json();
      assert.ok(await s3.object(objectKey(image)));
      const deleted = await send(at(2), 'DELETE', `/v1/media/images/${image.id}`, { key });
      assert.equal(deleted.statusCode, 204, deleted.body);
      for (let i = 0; i < 3; i++) assert.equal((await send(at(i), 'GET', image.path)).statusCode, 404, `process ${i}`);
      assert.equal(await s3.object(objectKey(image)), null);
      assertError(await send(at(1), 'DELETE', `/v1/media/images/${image.id}`, { key }), 'not_found');
    });

    it('holds the per-minute limit across all three', async () => {
      const store = await t.createStore();
      const key = await t.issueKey(store, undefined, { readPerMinute: 5 });
      const answers: FetchedResponse[] = [];
      for (let i = 0; i < 9; i++) answers.push(await send(at(i), 'GET', '/v1/me', { key }));
      assert.deepEqual(
        answers.map((a) => a.statusCode),
        [200, 200, 200, 200, 200, 429, 429, 429, 429],
      );
      const refused = assertError(answers[5], 'rate_limited');
      assert.ok(refused);
      assert.ok(Number(answers[5].headers['retry-after']) >= 1);
      assert.equal(answers[8].headers['x-ratelimit-remaining'], '0');
    });

    it('holds the daily quota across all three', async () => {
      const store = await t.createStore({ changes: { posts_per_day: 4 } });
      const key = await t.issueKey(store, undefined, { writePerMinute: 1000, concurrency: 100 });
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          send(at(i), 'POST', '/v1/blog/posts', {
            key,
            headers: { 'idempotency-key': `fleet-q-${i}` },
            body: { title: `Q${i}`, body_html: `<p>${i}</p>` },
          }),
        ),
      );
      assert.equal(
        answers.filter((a) => a.statusCode === 201).length,
        4,
        JSON.stringify(answers.map((a) => a.statusCode)),
      );
      for (const a of answers.filter((x) => x.statusCode !== 201)) {
        assertError(a, 'quota_exceeded', [{ field: 'quotas.posts_per_day', issue: 'daily limit of 4 reached' }]);
      }
    });

    it('holds the in-flight limit across all three: a slot taken on one is missing on the others', async () => {
      const store = await t.createStore();
      const key = await t.issueKey(store, undefined, { concurrency: 1 });
      // Admitted on the first process, the upload holds the key's only slot.
      const upload = await startSlowUpload(servers[0].port, key, () => requestInFlight(servers[0].baseUrl));
      for (const i of [1, 2]) assertError(await send(at(i), 'GET', '/v1/me', { key }), 'concurrency_limited');
      const answer = await upload.finish();
      assert.match(answer, /^HTTP\/1\.1 201 /, answer);
      // The slot is given back just after the answer is written (the client can see the answer
      // first), so another process is asked until it is free: a leaked slot never frees.
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++)
        status = (await send(at(2), 'GET', '/v1/me', { key })).statusCode;
      assert.equal(status, 200, 'the slot is free again everywhere');
    });

    it('a process whose Redis or database stops answering is not ready, and still alive', async () => {
      const redisUrl = new URL(TEST_REDIS_URL);
      const dbUrl = new URL(env.DATABASE_URL);
      const redisProxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
      const dbProxy = await startTcpProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
      proxies.push(redisProxy, dbProxy);
      const viaRedis = new URL(TEST_REDIS_URL);
      viaRedis.port = String(redisProxy.port);
      const viaDb = new URL(env.DATABASE_URL);
      viaDb.port = String(dbProxy.port);
      const fourth = await startServerProcess({
        ...env,
        REDIS_URL: viaRedis.toString(),
        DATABASE_URL: viaDb.toString(),
      });
      servers.push(fourth);
      const ready = () => send(fourth.baseUrl, 'GET', '/readyz');
      const live = () => send(fourth.baseUrl, 'GET', '/livez');

      assert.equal((await ready()).statusCode, 200);
      redisProxy.setHung(true);
      // Redis is worked around: still ready for traffic, degraded; strict names it as failing.
      let answer = await ready();
      assert.equal(answer.statusCode, 200);
      assert.deepEqual([answer.json().failing, answer.json().degraded], [[], ['redis']]);
      answer = await send(fourth.baseUrl, 'GET', '/readyz?strict=1');
      assert.equal(answer.statusCode, 503);
      assert.deepEqual(answer.json().failing, ['redis']);
      assert.equal(answer.json().checks.database.status, 'ok');
      assert.equal((await live()).statusCode, 200);
      redisProxy.setHung(false);
      assert.equal((await ready()).statusCode, 200);

      dbProxy.setHung(true);
      answer = await ready();
      assert.equal(answer.statusCode, 503);
      assert.deepEqual(answer.json().failing, ['database']);
      assert.equal((await live()).statusCode, 200);
      dbProxy.setHung(false);
      assert.equal((await ready()).statusCode, 200);
      servers.pop();
      assert.equal(await fourth.stop(), 0, fourth.stderr());
    });

    it('SIGTERM during a slow upload: the upload succeeds, the process exits 0, the others serve it', async () => {
      const store = await t.createStore();
      const key = await t.issueKey(store, undefined, { concurrency: 1 });
      const server = servers[0];
      const upload = await startSlowUpload(server.port, key, () => requestInFlight(server.baseUrl));
      server.child.kill('SIGTERM');
      await waitUntilRefused(server.port);
      const answer = await upload.finish();
      assert.match(answer, /^HTTP\/1\.1 201 /, answer);
      assert.equal(await server.exited, 0, server.stderr());
      const image = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      const served = await send(at(1), 'GET', image.path);
      assert.equal(served.statusCode, 200);
      assert.ok(served.rawPayload.equals((await s3.object(objectKey(image)))!));
    });
  },
  { skip: redisSkip },
);
