// Turns "the database could not be reached or opened" into a sentence an operator can act on:
// where the service tried to connect, what went wrong, and which variable sets the target.
// A bare "connect ECONNREFUSED" (or an empty message, when a host name resolved to several
// addresses and every attempt failed) says neither.
import type { DatabaseConfig } from '../config/config.js';

interface CodedError {
  code?: unknown;
  errors?: unknown;
  cause?: unknown;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running and listening there?',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset by the server',
};

/** PostgreSQL refusals at connection time (SQLSTATE) that the operator fixes in the URL. */
const POSTGRES_REASONS: Record<string, string> = {
  '3D000': 'the database does not exist',
  '28P01': 'password authentication failed',
  '28000': 'the server refused this user or address',
};

/** Every error code in an error, its aggregated errors and its causes. */
function codesOf(err: unknown, seen = new Set<unknown>()): string[] {
  if (typeof err !== 'object' || err === null || seen.has(err)) return [];
  seen.add(err);
  const e = err as CodedError;
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => codesOf(x, seen)) : [];
  return [...own, ...nested, ...codesOf(e.cause, seen)];
}

/** host:port and database name of a postgres:// URL, without its credentials. */
function postgresTarget(url: string): { where: string; database: string } {
  try {
    const u = new URL(url);
    const host = u.hostname || 'localhost';
    return { where: `${host}:${u.port || '5432'}`, database: decodeURIComponent(u.pathname.slice(1)) || '(default)' };
  } catch {
    return { where: '(unparseable URL)', database: '(unknown)' };
  }
}

/** A message naming the target and DATABASE_URL, or null when the error is not about reaching the database. */
export function describeConnectionFailure(err: unknown, database: DatabaseConfig): string | null {
  const codes = codesOf(err);
  if (database.engine === 'postgres') {
    const { where, database: name } = postgresTarget(database.url);
    const network = codes.find((c) => NETWORK_REASONS[c]);
    if (network)
      return `cannot reach the PostgreSQL server at ${where} (${network}: ${NETWORK_REASONS[network]}); check DATABASE_URL`;
    const refused = codes.find((c) => POSTGRES_REASONS[c]);
    if (refused)
      return `the PostgreSQL server at ${where} refused database "${name}" (${POSTGRES_REASONS[refused]}); check DATABASE_URL`;
    return null;
  }
  if (codes.some((c) => c === 'SQLITE_CANTOPEN' || c === 'EACCES' || c === 'ENOENT' || c === 'SQLITE_NOTADB')) {
    return `cannot open the SQLite database file ${database.file} (${codes[0]}); check DATABASE_URL`;
  }
  return null;
}
