// PostgreSQL: a read that loses its connection (the backend terminated by an operator or a
// failover, the network cut) is tried once more on a fresh connection from the pool, so a
// killed connection does not turn into a 500 for a request that changed nothing.
//
// Only a single SELECT outside a transaction is tried again: it changes nothing, so running it
// twice is the same as running it once. Writes never are: a statement in a transaction, or any
// INSERT/UPDATE/DELETE, fails with its lost connection. PostgreSQL rolls back a transaction whose
// connection ends before COMMIT; if the connection ended after COMMIT was sent, the outcome is
// known only to the database, and a client that retries with the same Idempotency-Key gets the
// stored answer if it committed, or has it done once if it did not (docs/api-behaviour.md).
import {
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

const READ = /^\s*select\b/i;

/** Errors that mean the connection is gone, not that the statement was wrong. */
const LOST_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNRESET', 'EPIPE', 'ECONNREFUSED']);
const LOST_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed|terminating connection/i;

export function lostConnection(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return (
    (typeof code === 'string' && LOST_CODES.has(code)) || (typeof message === 'string' && LOST_MESSAGES.test(message))
  );
}

class RetryingConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly driver: Driver,
    private readonly onRetry: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (err) {
      if (this.inTransaction || !READ.test(query.sql) || !lostConnection(err)) throw err;
      this.onRetry();
      const fresh = await this.driver.acquireConnection();
      try {
        return await fresh.executeQuery<R>(query);
      } finally {
        await this.driver.releaseConnection(fresh);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class RetryingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly onRetry: () => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RetryingConnection(await this.inner.acquireConnection(), this.inner, this.onRetry);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const own = connection as RetryingConnection;
    own.inTransaction = true;
    await this.inner.beginTransaction(own.inner, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as RetryingConnection;
    try {
      await this.inner.commitTransaction(own.inner);
    } finally {
      own.inTransaction = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as RetryingConnection;
    try {
      await this.inner.rollbackTransaction(own.inner);
    } finally {
      own.inTransaction = false;
    }
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['savepoint']>>[2],
  ): Promise<void> {
    return this.inner.savepoint!((connection as RetryingConnection).inner, name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ): Promise<void> {
    return this.inner.rollbackToSavepoint!((connection as RetryingConnection).inner, name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ): Promise<void> {
    return this.inner.releaseSavepoint!((connection as RetryingConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as RetryingConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** PostgresDialect whose lone reads are tried once more on a fresh connection when theirs is lost. */
export class ReadRetryingPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly onRetry: () => void = () => {},
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new RetryingDriver(super.createDriver(), this.onRetry);
  }
}
