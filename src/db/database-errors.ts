// How the PostgreSQL link fails, told apart from what the database answers. A statement the
// database refuses (a unique violation, its own statement timeout) is an answer; a connection
// lost, a query with no answer in time, a connection that cannot be opened, or no pooled
// connection free in time is the dependency failing. Those are counted against the database
// (metrics, /readyz, the log), never against Redis, and answer `503 service_unavailable` with
// Retry-After instead of `500` where nothing was changed (docs/operations.md, "Gray failures").

/** Why a request could not use the database. */
export type DatabaseFailureKind = 'pool_timeout' | 'circuit_open' | 'timeout' | 'unreachable' | 'other';

/** `other`: a statement of background work refused by the database (a request's goes to its answer). */
export const DATABASE_FAILURE_KINDS: readonly DatabaseFailureKind[] = [
  'pool_timeout',
  'circuit_open',
  'timeout',
  'unreachable',
  'other',
];

/** Seconds a client should wait before trying again, per kind: no shorter than the wait it reports. */
const RETRY_AFTER_SECONDS: Record<DatabaseFailureKind, number> = {
  // A pooled connection frees up as soon as a request finishes.
  pool_timeout: 1,
  other: 1,
  // The breaker asks again every second; answering within two covers a probe in flight.
  circuit_open: 2,
  timeout: 2,
  unreachable: 2,
};

/** The database could not be used for this request; the HTTP layer answers 503 service_unavailable. */
export class DatabaseUnavailableError extends Error {
  readonly retryAfterSeconds: number;
  constructor(
    readonly kind: DatabaseFailureKind,
    cause?: unknown,
  ) {
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    super(`database ${kind.replace('_', ' ')}${detail}`, { cause });
    this.name = 'DatabaseUnavailableError';
    this.retryAfterSeconds = RETRY_AFTER_SECONDS[kind];
  }
}

/** SQLSTATEs and socket codes that mean the connection is gone, not that the statement was wrong. */
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

/** pg's client-side query timeout (query_timeout): the server never answered. */
export const isQueryTimeout = (err: unknown): boolean => err instanceof Error && err.message === 'Query read timeout';

/** A connection that could not be opened in time (marked by the client, src/db/database.ts; or in pg's words). */
export const isConnectTimeout = (err: unknown): boolean =>
  err instanceof Error &&
  ((err as { connectTimedOut?: unknown }).connectTimedOut === true ||
    /timeout expired|connection timeout/i.test(err.message));

/** True for an error of the link to the database (not an answer of the database's). */
export function isDatabaseLinkFailure(err: unknown): boolean {
  return err instanceof DatabaseUnavailableError || lostConnection(err) || isQueryTimeout(err);
}

/** An error PostgreSQL itself answered with (it carries a SQLSTATE and a severity). */
export function isDatabaseAnswer(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** The metric and warning kind of a failure. */
export function databaseFailureKind(err: unknown): DatabaseFailureKind {
  if (err instanceof DatabaseUnavailableError) return err.kind;
  if (isQueryTimeout(err) || isConnectTimeout(err)) return 'timeout';
  if (lostConnection(err)) return 'unreachable';
  return 'other';
}
