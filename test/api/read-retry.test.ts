// PostgreSQL: a connection killed under a running statement (pg_terminate_backend, as an operator
// or a failover does). A lone read is tried again on a fresh connection (up to four tries) and answers; a
// statement in a transaction and a write fail with the lost connection, never run twice
// (src/db/postgres-driver.ts). The retry runs on a connection opened after the failure, never on
// another idle one of the pool, which may be just as dead (a failover, a cut link).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Kysely, sql } from 'kysely';
import { describeOnPostgres } from '../helpers/engines.js';
import { POSTGRES_ADMIN_URL } from '../helpers/database-template.js';
import { BoundedPostgresDialect } from '../../src/db/postgres-driver.js';
import { DatabaseUnavailableError } from '../../src/db/database-errors.js';

describeOnPostgres('a read whose connection is killed is tried again', (postgres) => {
  let db: Kysely<any>;
  let pool: pg.Pool;
  let admin: pg.Client;
  let drop: () => Promise<void>;
  let retries = 0;
  let databaseName = '';
  let databaseUrl = '';
  before(async () => {
    const created = await postgres.create();
    databaseUrl = created.database.url;
    databaseName = new URL(databaseUrl).pathname.slice(1);
    drop = created.drop;
    pool = new pg.Pool({ connectionString: created.database.url, max: 4 });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    db = new Kysely<any>({ dialect: new BoundedPostgresDialect({ pool, onRetry: () => (retries += 1) }) });
    admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
  });
  after(async () => {
    await db?.destroy();
    await admin?.end();
    await drop?.();
  });

  /** Terminates the backend running a statement that contains `marker`, once it runs. */
  /** Backends already terminated: one may still be listed as active for a moment after. */
  const terminated = new Set<number>();

  async function killWhenRunning(marker: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await admin.query(
        "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
        [`%${marker}%`],
      );
      const pid = (rows as Array<{ pid: number }>).find((row) => !terminated.has(row.pid))?.pid;
      if (pid !== undefined) {
        terminated.add(pid);
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no statement with ${marker} ran`);
  }

  it('a read answers from a fresh connection', async () => {
    const before = retries;
    const killed = killWhenRunning('read_marker_1');
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one, pg_sleep(1), 'read_marker_1' AS m`.execute(db);
    await killed;
    assert.equal(rows[0]!.one, 1);
    assert.equal(retries - before, 1);
  });

  it('a read whose retries are killed too answers from a fourth connection, and a fourth loss makes it unavailable', async () => {
    let before = retries;
    const killedTwice = (async () => {
      for (let i = 0; i < 3; i++) await killWhenRunning('read_marker_4');
    })();
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one, pg_sleep(1), 'read_marker_4' AS m`.execute(db);
    await killedTwice;
    assert.equal(rows[0]!.one, 1);
    assert.equal(retries - before, 3);

    before = retries;
    const killedThrice = (async () => {
      for (let i = 0; i < 4; i++) await killWhenRunning('read_marker_5');
    })();
    // Lost on every try: the database is unreachable for now (503 service_unavailable, Retry-After).
    await assert.rejects(
      sql`SELECT pg_sleep(1), 'read_marker_5' AS m`.execute(db),
      (err: unknown) =>
        err instanceof DatabaseUnavailableError && err.kind === 'unreachable' && /terminat/i.test(err.message),
    );
    await killedThrice;
    assert.equal(retries - before, 3);
  });

  it('a read gives its lost connection back before waiting for another: a pool of one still answers it', async () => {
    // With the lost connection held while the retry waits, a pool of one has nothing to hand out
    // and the retry waits until the pool's bound (here 2 s) ends it with 503.
    const single = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    single.on('error', () => undefined);
    single.on('connect', (client) => client.on('error', () => undefined));
    let ownRetries = 0;
    const small = new Kysely<any>({
      dialect: new BoundedPostgresDialect({ pool: single, poolWaitTimeoutMs: 2000, onRetry: () => (ownRetries += 1) }),
    });
    try {
      const killed = (async () => {
        for (let i = 0; i < 3; i++) await killWhenRunning('single_marker_6');
      })();
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one, pg_sleep(1), 'single_marker_6' AS m`.execute(small);
      await killed;
      assert.equal(rows[0]!.one, 1);
      assert.equal(ownRetries, 3);
      assert.equal(single.totalCount, 1);
    } finally {
      await small.destroy();
    }
  });

  it('a statement in a transaction fails with its connection', async () => {
    const before = retries;
    const killed = killWhenRunning('tx_marker_2');
    await assert.rejects(
      db.transaction().execute((trx) => sql`SELECT pg_sleep(1), 'tx_marker_2' AS m`.execute(trx)),
      /terminat/i,
    );
    await killed;
    assert.equal(retries, before);
  });

  it('a write fails with its connection, and is not run twice', async () => {
    await sql`CREATE TABLE IF NOT EXISTS retry_probe (n int)`.execute(db);
    const before = retries;
    const killed = killWhenRunning('write_marker_3');
    await assert.rejects(
      sql`INSERT INTO retry_probe SELECT 1 FROM pg_sleep(1) WHERE 'write_marker_3' <> ''`.execute(db),
      /terminat/i,
    );
    await killed;
    assert.equal(retries, before);
    assert.equal((await sql<{ n: number }>`SELECT count(*)::int AS n FROM retry_probe`.execute(db)).rows[0]!.n, 0);
  });

  it('a read on a dead idle connection, beside other dead idle ones, answers from a connection opened after the failure', async () => {
    // Four idle connections in the pool, all terminated (a failover, a restart): the read takes one.
    // The terminated backends tell their clients so, and the pool drops a client once it has read
    // that; if it has read it for any of them before the read below starts, the read would not
    // meet a dead connection, so the set-up is made again until all four are still held.
    for (let attempt = 1; ; attempt++) {
      await Promise.all([1, 2, 3, 4].map(() => sql`SELECT pg_sleep(0.05)`.execute(db)));
      assert.equal(pool.idleCount, 4);
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
        [databaseName],
      );
      if (pool.idleCount === 4) break;
      assert.ok(attempt < 20, 'the pool noticed the terminations before every one of 20 reads');
    }
    const before = retries;
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    assert.equal(rows[0]!.one, 1);
    assert.equal(retries - before, 1);
  });
});
