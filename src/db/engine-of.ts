import { PostgresAdapter } from 'kysely';
import type { Db } from './database.js';

/** Whether `db` (a database or a transaction) talks to PostgreSQL, for the few statements spelled per engine. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
