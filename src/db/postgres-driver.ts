// The PostgreSQL driver behind Kysely: pg's pool, with every wait on the database bounded.
//
// - Waiting for a pooled connection: at most `poolWaitTimeoutMs`, then DatabaseUnavailableError
//   ('pool_timeout'; 503 with Retry-After). A busy pool is the API's own queue, not the database
//   failing: it does not count against the breaker, and readiness does not use this pool.
// - A query with no answer within pg's query_timeout (set a little above the statement timeout,
//   src/db/database.ts) and a connection that cannot be opened in time count against the circuit
//   breaker (src/lib/circuit-breaker.ts); while it is open, requests get 503 at once instead of
//   each waiting out the timeout, and a probe on a connection of its own closes it.
// - A connection that fails (lost, or timed out and so in an unknown state) is destroyed, not
//   given back, and every connection opened before the failure is dropped when next taken from
//   the pool: after a failover or a cut link the idle ones are most likely dead too.
// - A lone read whose connection is lost is tried again (up to READ_ATTEMPTS) on a connection
//   opened after the failure, so a killed backend does not turn into a 500 for a request that
//   changed nothing. The lost connection goes back to the pool, destroyed, before the read waits
//   for another: a read holding dead connections while it waits could use up a small pool alone.
//   Writes never are: a statement in a transaction, or any INSERT/UPDATE/DELETE, fails with its
//   lost connection. PostgreSQL rolls back a transaction whose connection ends before COMMIT; if
//   it ended after COMMIT was sent, the outcome is known only to the database, and a client that
//   retries with the same Idempotency-Key gets the stored answer if it committed, or has it done
//   once if it did not (docs/api-behaviour.md).
import type pg from 'pg';
import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { CircuitBreaker } from '../lib/circuit-breaker.js';
import { CircuitOpenError } from '../lib/circuit-breaker.js';
import {
  DatabaseUnavailableError,
  isConnectTimeout,
  isQueryTimeout,
  lostConnection,
  type DatabaseFailureKind,
} from './database-errors.js';

const READ = /^\s*select\b/i;

export interface PostgresDriverOptions {
  pool: pg.Pool;
  /** Longest wait for a pooled connection when all are in use (undefined: no limit). */
  poolWaitTimeoutMs?: number;
  breaker?: CircuitBreaker;
  /** Each failure of the link (never a statement the database refused). */
  onFailure?: (err: DatabaseUnavailableError | Error) => void;
  /** A lost read was tried again (tests count them). */
  onRetry?: () => void;
  /** Test hook: false retries a lost read on whatever the pool hands out, to show what eviction guards. */
  evictAfterFailure?: boolean;
}

/**
 * Tries of a lone read whose connection is lost, each on a connection opened after the failure
 * before it. A failover or an operator ending every backend can catch a retry too while the
 * database settles (its connections ended again within a second); the bound keeps a read's work
 * finite when the database keeps dropping them.
 */
const READ_ATTEMPTS = 4;
/** Opens of a connection lost while being opened, before a request answers 503. */
const OPEN_ATTEMPTS = 3;

class PgConnection implements DatabaseConnection {
  inTransaction = false;
  /** The connection failed: it is destroyed on release, and nothing more is sent on it. */
  broken = false;
  /** Which try of a lone read this connection runs (1: its first). */
  attempt = 1;

  constructor(
    /** null once a lost connection was given back and no other could be had. */
    public client: pg.PoolClient | null,
    private readonly driver: BoundedPostgresDriver,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.broken || !this.client) throw new DatabaseUnavailableError('unreachable');
    let result: pg.QueryResult;
    try {
      result = await this.client.query(query.sql, [...query.parameters]);
    } catch (err) {
      if (isQueryTimeout(err)) {
        this.broken = true;
        throw this.driver.linkFailed(new DatabaseUnavailableError('timeout', err), true);
      }
      if (!lostConnection(err)) {
        // The database answered (a constraint, its own statement timeout): it is not hung.
        this.driver.answered();
        throw err;
      }
      this.broken = true;
      this.driver.linkFailed(err as Error, false);
      // A write's outcome is unknown once its connection is lost: it fails as it is (500).
      if (this.inTransaction || !READ.test(query.sql)) throw err;
      // A read changed nothing: lost on every try, the database is unreachable for now (503).
      if (this.attempt >= READ_ATTEMPTS) throw new DatabaseUnavailableError('unreachable', err);
      return await this.retryRead<R>(query);
    }
    this.driver.answered();
    return {
      numAffectedRows:
        result.command === 'INSERT' ||
        result.command === 'UPDATE' ||
        result.command === 'DELETE' ||
        result.command === 'MERGE'
          ? BigInt(result.rowCount ?? 0)
          : undefined,
      rows: (result.rows ?? []) as R[],
    };
  }

  /** The lost connection is given back, destroyed, then the read runs on one opened after the loss. */
  private async retryRead<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.client!.release(true);
    this.client = null;
    this.driver.retrying();
    this.client = await this.driver.freshClient();
    this.broken = false;
    this.attempt += 1;
    return await this.executeQuery<R>(query);
  }

  /** Back to the pool; destroyed if it failed. */
  release(): void {
    this.client?.release(this.broken ? true : undefined);
    this.client = null;
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used by this service');
  }
}

export class BoundedPostgresDriver implements Driver {
  /** Grows with each link failure; connections opened before it are dropped when next taken. */
  private generation = 0;
  private readonly born = new WeakMap<pg.PoolClient, number>();
  private readonly pool: pg.Pool;

  constructor(private readonly options: PostgresDriverOptions) {
    this.pool = options.pool;
    this.pool.on('connect', (client) => this.born.set(client as pg.PoolClient, this.generation));
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PgConnection(await this.freshClient(), this);
  }

  /** A pooled connection opened since the last link failure (the circuit breaker allowing). */
  async freshClient(): Promise<pg.PoolClient> {
    try {
      this.options.breaker?.check();
    } catch (err) {
      if (err instanceof CircuitOpenError) throw new DatabaseUnavailableError('circuit_open');
      throw err;
    }
    // Each pass either hands out a connection opened since the last failure or drops an older one.
    // A connection lost while it was being opened (a backend terminated during its start-up, a
    // reset link) did no work: another is opened, up to OPEN_ATTEMPTS, before the request is answered 503.
    let lostWhileOpening = 0;
    for (;;) {
      let client: pg.PoolClient;
      try {
        client = await this.connect();
      } catch (err) {
        if (err instanceof DatabaseUnavailableError && err.kind === 'unreachable' && ++lostWhileOpening < OPEN_ATTEMPTS)
          continue;
        throw err;
      }
      if (this.options.evictAfterFailure !== false && (this.born.get(client) ?? this.generation) < this.generation) {
        client.release(true);
        continue;
      }
      return client;
    }
  }

  /** pool.connect() with the wait bounded; a connection that arrives after the deadline goes back. */
  private connect(): Promise<pg.PoolClient> {
    const waitMs = this.options.poolWaitTimeoutMs;
    const pending = this.pool.connect();
    if (!waitMs) return pending.catch((err: unknown) => Promise.reject(this.connectFailed(err)));
    return new Promise<pg.PoolClient>((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        const kind: DatabaseFailureKind =
          this.pool.totalCount >= (this.pool.options.max ?? 10) ? 'pool_timeout' : 'timeout';
        const err = new DatabaseUnavailableError(kind);
        this.options.onFailure?.(err);
        reject(err);
      }, waitMs);
      timer.unref();
      pending.then(
        (client) => {
          clearTimeout(timer);
          if (late) client.release();
          else resolve(client);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (!late) reject(this.connectFailed(err));
        },
      );
    });
  }

  private connectFailed(err: unknown): DatabaseUnavailableError {
    const failure = new DatabaseUnavailableError(isConnectTimeout(err) ? 'timeout' : 'unreachable', err);
    this.linkFailed(failure, isConnectTimeout(err));
    return failure;
  }

  /** A link failure: counted, the older connections marked for dropping, a timeout told to the breaker. */
  linkFailed<E extends Error>(err: E, timedOut: boolean): E {
    this.generation += 1;
    if (timedOut) this.options.breaker?.timeout();
    this.options.onFailure?.(err);
    return err;
  }

  answered(): void {
    this.options.breaker?.success();
  }

  retrying(): void {
    this.options.onRetry?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const own = connection as PgConnection;
    own.inTransaction = true;
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = 'start transaction';
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    await own.executeQuery(CompiledQuery.raw(text));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as PgConnection;
    try {
      await own.executeQuery(CompiledQuery.raw('commit'));
    } finally {
      own.inTransaction = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as PgConnection;
    try {
      // A broken connection's transaction ends with it: PostgreSQL rolls it back.
      if (!own.broken) await own.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      own.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PgConnection).release();
  }

  async destroy(): Promise<void> {
    this.options.breaker?.stop();
    await this.pool.end();
  }
}

/** Savepoint names come from the code (Kysely's own or ours), quoted all the same. */
function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** PostgresDialect with the bounded driver above. */
export class BoundedPostgresDialect extends PostgresDialect {
  constructor(private readonly driverOptions: PostgresDriverOptions) {
    super({ pool: driverOptions.pool });
  }

  override createDriver(): Driver {
    return new BoundedPostgresDriver(this.driverOptions);
  }
}
