// PostgreSQL operator settings through HTTP: DATABASE_STATEMENT_TIMEOUT_MS ends a statement
// stuck behind a lock (the request answers 500 internal_error, retryable, instead of hanging),
// and DATABASE_POOL_MAX bounds the connections a process opens (the rest wait, as /metrics shows).
// The lock is taken by a separate, real client in an open transaction.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { describeOnPostgres } from '../helpers/engines.js';
import { assertError } from '../helpers/assertions.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Holds an exclusive lock on `posts` from another connection until released. */
async function lockPosts(t: TestApp): Promise<() => Promise<void>> {
  if (t.config.database.engine !== 'postgres') throw new Error('PostgreSQL only');
  const client = new pg.Client({ connectionString: t.config.database.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
  return async () => {
    await client.query('ROLLBACK');
    await client.end();
  };
}

async function gauge(t: TestApp, name: string): Promise<number> {
  const text = (await t.request({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} in /metrics`);
  return Number(line.split(' ')[1]);
}

describeOnPostgres('PostgreSQL settings', (target) => {
  it('DATABASE_STATEMENT_TIMEOUT_MS: a statement stuck behind a lock ends, and the request answers 500 internal_error', async () => {
    const t = await startTestApp(target, { DATABASE_STATEMENT_TIMEOUT_MS: '300' });
    try {
      const { key } = await t.tenant();
      const release = await lockPosts(t);
      try {
        const request = t.request({ method: 'GET', url: '/v1/blog/posts', key });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 5000)));
        const res = await Promise.race([request, late]).finally(() => clearTimeout(timer));
        if (res === 'late') assert.fail('the request still waits on the lock after 5 s');
        assertError(res, 'internal_error');
      } finally {
        await release();
      }
      assert.equal((await t.request({ method: 'GET', url: '/v1/blog/posts', key })).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('DATABASE_POOL_MAX: a process opens at most that many connections; further queries wait', async () => {
    const t = await startTestApp(target, { DATABASE_POOL_MAX: '2', DATABASE_STATEMENT_TIMEOUT_MS: '0' });
    try {
      const { key } = await t.tenant({});
      const keys = [key, ...(await Promise.all([1, 2, 3].map(async () => (await t.tenant()).key)))];
      assert.equal(await gauge(t, 'blog_api_db_pool_max'), 2);
      const release = await lockPosts(t);
      let answers: Promise<number[]>;
      try {
        answers = Promise.all(
          keys.map(async (k) => (await t.request({ method: 'GET', url: '/v1/blog/posts', key: k })).statusCode),
        );
        const until = Date.now() + 10_000;
        while ((await gauge(t, 'blog_api_db_pool_waiting')) < 1 && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 20));
        assert.ok((await gauge(t, 'blog_api_db_pool_waiting')) >= 1, 'queries wait for a connection');
        assert.equal(await gauge(t, 'blog_api_db_pool_connections_in_use'), 2);
        assert.equal(await gauge(t, 'blog_api_db_pool_connections_open'), 2);
      } finally {
        await release();
      }
      assert.deepEqual(await answers, [200, 200, 200, 200]);
      assert.equal(await gauge(t, 'blog_api_db_pool_waiting'), 0);
    } finally {
      await t.close();
    }
  });
});
