// The caches against real processes: two API servers and the operator CLI, each its own OS
// process, on one PostgreSQL database, without Redis and with it (then the cache versions are
// kept in Redis too). Whatever a server has cached, a command that has returned applies on the
// very next request to every server.
import { after, before, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { describeOnPostgres } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { send } from '../helpers/fetch-response.js';
import { runCli } from '../helpers/cli.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';

const redisSkip = await redisSkipReason();

for (const mode of [
  { name: '', env: {} as Record<string, string>, skip: undefined },
  { name: ', with Redis', env: { REDIS_URL: TEST_REDIS_URL } as Record<string, string>, skip: redisSkip },
])
  describeOnPostgres(
    `caches across server processes and the CLI on one PostgreSQL${mode.name}`,
    (postgres) => {
      let t: TestApp;
      let db: string;
      const servers: ServerProcess[] = [];
      before(async () => {
        t = await startTestApp(postgres);
        db = t.config.database.url;
        servers.push(
          await startServerProcess({ DATABASE_URL: db, ...mode.env }),
          await startServerProcess({ DATABASE_URL: db, ...mode.env }),
        );
      });
      after(async () => {
        for (const s of servers) await s.stop();
        await t?.close();
      });

      /** Every server answers `path` several times, so whatever it caches is cached. */
      const warm = async (key: string, path: string) => {
        for (const s of servers) {
          for (let i = 0; i < 3; i++) assert.equal((await send(s.baseUrl, 'GET', path, { key })).statusCode, 200);
        }
      };
      const createPost = (s: ServerProcess, key: string, title: string) =>
        send(s.baseUrl, 'POST', '/v1/blog/posts', {
          key,
          body: { title, body_html: `<p>${title}</p>` },
          headers: { 'idempotency-key': randomUUID() },
        });
      const cli = async (...args: string[]) => {
        const result = await runCli({ DATABASE_URL: db, ...mode.env }, ...args);
        assert.equal(result.code, 0, result.stderr);
        return JSON.parse(result.stdout);
      };

      it('refuses a key revoked by the CLI on the very next request to every server', async () => {
        const { store, key } = await t.tenant();
        const post = (await createPost(servers[0], key, 'Kept')).json();
        for (const path of ['/v1/me', '/v1/blog/posts', `/v1/blog/posts/${post.id}`]) await warm(key, path);
        await cli('key', 'revoke', key.slice(9, 17));
        for (const s of servers) {
          for (const path of ['/v1/me', '/v1/blog/posts', `/v1/blog/posts/${post.id}`])
            assertError(await send(s.baseUrl, 'GET', path, { key }), 'unauthorized');
        }
        // Other keys of the store are not affected.
        const other = await t.issueKey(store);
        assert.equal((await send(servers[1].baseUrl, 'GET', '/v1/me', { key: other })).statusCode, 200);
      });

      // Only where the servers keep versions in Redis: without Redis there is nothing the CLI could fail to drop.
      if (mode.env.REDIS_URL)
        it('refuses an operator command when the servers keep versions in Redis and the CLI cannot drop them, before changing anything', async () => {
          const { store, key } = await t.tenant();
          await warm(key, '/v1/me');
          const keyId = key.slice(9, 17);
          const withoutRedis = await runCli({ DATABASE_URL: db }, 'key', 'revoke', keyId);
          assert.deepEqual([withoutRedis.code, withoutRedis.stdout], [1, '']);
          assert.match(withoutRedis.stderr, /keep cache versions in Redis.*set REDIS_URL.*nothing was changed/);
          const unreachable = await runCli(
            { DATABASE_URL: db, REDIS_URL: 'redis://127.0.0.1:1' },
            'key',
            'revoke',
            keyId,
          );
          assert.deepEqual([unreachable.code, unreachable.stdout], [1, '']);
          assert.match(unreachable.stderr, /cannot reach Redis at 127\.0\.0\.1:1 \(REDIS_URL: .*nothing was changed/);
          const listed = await cli('key', 'list', '--store', store.handle);
          assert.equal(listed.keys.find((k: { key_id: string }) => k.key_id === keyId).revoked_at, null);
          // Commands that change nothing need no Redis.
          for (const redisEnv of [{}, { REDIS_URL: 'redis://127.0.0.1:1' }] as Array<Record<string, string>>) {
            const readOnly = await runCli({ DATABASE_URL: db, ...redisEnv }, 'key', 'list', '--store', store.handle);
            assert.equal(readOnly.code, 0, readOnly.stderr);
            assert.deepEqual(JSON.parse(readOnly.stdout), listed);
          }
          for (const s of servers) assert.equal((await send(s.baseUrl, 'GET', '/v1/me', { key })).statusCode, 200);
        });

      it('refuses a key the CLI made expired on the very next request to every server', async () => {
        const { key } = await t.tenant();
        await warm(key, '/v1/me');
        await cli('key', 'update', key.slice(9, 17), '--expires-at', new Date(Date.now() - 60_000).toISOString());
        for (const s of servers) assertError(await send(s.baseUrl, 'GET', '/v1/me', { key }), 'unauthorized');
      });

      it('applies store and key changes made by the CLI on the next request to every server', async () => {
        const { store, key } = await t.tenant();
        await warm(key, '/v1/me');
        await warm(key, '/v1/blog/posts');
        await cli('store', 'update', store.handle, '--name', 'Renamed by the operator', '--utc-offset', '+09:00');
        await cli('key', 'update', key.slice(9, 17), '--read-per-minute', '1234');
        for (const s of servers) {
          const me = await send(s.baseUrl, 'GET', '/v1/me', { key });
          assert.equal(me.json().store.name, 'Renamed by the operator');
          assert.equal(me.json().rate_limits.read_per_minute, 1234);
          assert.equal(me.headers['x-ratelimit-limit'], '1234');
        }
        await cli('store', 'update', store.handle, '--certified', 'off');
        for (const s of servers)
          assertError(await send(s.baseUrl, 'GET', '/v1/blog/posts', { key }), 'tenant_not_certified');
      });

      it('shows a post changed through one server on the next read from the other, and new quota use in /v1/me', async () => {
        const { key } = await t.tenant();
        const [a, b] = servers;
        const created = await createPost(a, key, 'Before');
        assert.equal(created.statusCode, 201, created.body);
        const id = created.json().id;
        await warm(key, `/v1/blog/posts/${id}`);
        await warm(key, '/v1/blog/posts');
        await warm(key, '/v1/me');
        const used = (await send(b.baseUrl, 'GET', '/v1/me', { key })).json().quotas.posts_per_day.used;
        assert.equal(
          (await send(a.baseUrl, 'PATCH', `/v1/blog/posts/${id}`, { key, body: { title: 'After' } })).statusCode,
          200,
        );
        assert.equal((await send(b.baseUrl, 'GET', `/v1/blog/posts/${id}`, { key })).json().title, 'After');
        assert.equal((await send(b.baseUrl, 'GET', '/v1/blog/posts', { key })).json().data[0].title, 'After');
        assert.equal((await createPost(a, key, 'Second')).statusCode, 201);
        assert.equal((await send(b.baseUrl, 'GET', '/v1/blog/posts', { key })).json().data[0].title, 'Second');
        assert.equal((await send(b.baseUrl, 'GET', '/v1/me', { key })).json().quotas.posts_per_day.used, used + 1);
      });
    },
    { skip: mode.skip },
  );
