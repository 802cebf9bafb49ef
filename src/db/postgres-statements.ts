// Named (server-side prepared) statements on the PostgreSQL pool.
import type pg from 'pg';

/** Server-side prepared statements per pool (each connection prepares each name once). */
export const PREPARED_STATEMENT_NAMES = 500;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Kysely sends every PostgreSQL query unnamed, so the server parses and plans it again each
 * time. Repeated data statements get a name instead: each connection then parses and plans
 * them once (pg keeps track per connection). Bounded, so unusual one-off texts stay unnamed.
 * PostgreSQL re-plans a named statement after a schema change by itself, except when its
 * result columns change (a `select *` after a migration added a column): that statement is
 * then sent unnamed from then on. Also counts the statements sent.
 */
export function namePreparedStatements(pool: pg.Pool, max = PREPARED_STATEMENT_NAMES): { count: number } {
  const names = new Map<string, string | null>();
  const counter = { count: 0 };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
      counter.count++;
      if (typeof text === 'string' && Array.isArray(values) && rest.length === 0 && PREPARABLE.test(text)) {
        let name = names.get(text);
        if (name === undefined && names.size < max) names.set(text, (name = `blog_q${names.size + 1}`));
        if (name) {
          return query({ name, text, values }).catch((err: { code?: string }) => {
            if (err?.code !== '0A000') throw err;
            names.set(text, null);
            return query(text, values);
          });
        }
      }
      return query(text, values, ...rest);
    }) as typeof client.query;
  });
  return counter;
}
