import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * PostgreSQL: `blog_abort(reason)` raises an error (SQLSTATE P0001, the message `reason`). A
 * statement that does several writes at once (a post's create, src/modules/posts/
 * create-statement.ts) calls it when a rule fails, so that the whole statement, and with it
 * every write, is undone. SQLite has no such statements and needs nothing.
 */
export function abortFunctionMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`
        CREATE FUNCTION blog_abort(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
          RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = reason;
        END
        $$`.execute(db);
    },
  };
}
