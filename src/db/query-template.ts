// Hot queries built and compiled once, then run with new arguments. Kysely's builder and
// compiler cost several times what the statement itself costs on the per-request paths.
import type { Compilable, CompiledQuery, RawBuilder } from 'kysely';
import type { Db } from './database.js';

/**
 * Where an argument goes in a template: `$.name` while the query is built. For a list argument,
 * `$.name[i]` is its element i (the template is compiled once per list length, see `shape`).
 */
class Slot {
  constructor(
    readonly name: string,
    readonly index?: number,
  ) {}
}

/** `$` of a template: each property stands for the argument of that name, typed as it. */
function placeholders<Args>(): Args {
  return new Proxy({} as Record<string, unknown>, {
    get: (_, name) => {
      if (typeof name !== 'string') return undefined;
      const slot = new Slot(name);
      // Indexing a placeholder gives the placeholder of that element of a list argument.
      return new Proxy(slot, {
        get: (target, prop) =>
          typeof prop === 'string' && /^\d+$/.test(prop)
            ? new Slot(name, Number(prop))
            : (Reflect.get(target, prop) as unknown),
      });
    },
  }) as Args;
}

/**
 * `build` receives `$`, whose properties stand for the arguments (`$.storeId`), typed by the
 * annotation on `$`: `queryTemplate((db, $: { storeId: number }) => …)`. Arguments are values
 * only, not lists: a list is given element by element (`$.ids[i]`) with its length as `shape`,
 * and `shape` may also pick among variants of the query; each shape is compiled once per
 * database. It runs through Kysely as any query does, so transactions and the connection lock
 * still apply.
 */
export type TemplateBuilder<Args, Row> = (db: Db, $: Args, shape: number) => Compilable<Row>;

export function queryTemplate<Args, Row>(build: TemplateBuilder<Args, Row>) {
  const run = compiledRunner(build);
  return async (db: Db, args: Args, shape = 0): Promise<Row[]> => (await run(db, args, shape)).rows;
}

/** queryTemplate for writes whose outcome is how many rows they changed. */
export function writeTemplate<Args>(build: TemplateBuilder<Args, unknown>) {
  const run = compiledRunner(build);
  return async (db: Db, args: Args, shape = 0): Promise<number> =>
    Number((await run(db, args, shape)).numAffectedRows ?? 0);
}

type Parameter = { name: string; index: number | undefined } | { value: unknown };
type Template<Row> = { query: CompiledQuery<Row>; parameters: Parameter[] };

function compiledRunner<Args, Row>(build: TemplateBuilder<Args, Row>) {
  const compiled = new WeakMap<object, Map<number, Template<Row>>>();
  return (db: Db, args: Args, shape: number) => {
    const adapter = db.getExecutor().adapter;
    let shapes = compiled.get(adapter);
    if (!shapes) compiled.set(adapter, (shapes = new Map<number, Template<Row>>()));
    let template = shapes.get(shape);
    if (!template) {
      const query = build(db, placeholders<Args>(), shape).compile();
      const parameters = query.parameters.map((p): Parameter =>
        p instanceof Slot ? { name: p.name, index: p.index } : { value: p },
      );
      template = { query, parameters };
      shapes.set(shape, template);
    }
    const values = args as Record<string, unknown>;
    const parameters = template.parameters.map((p) => {
      if ('value' in p) return p.value;
      const value = values[p.name];
      return p.index === undefined ? value : (value as readonly unknown[])[p.index];
    });
    return db.executeQuery<Row>({ ...template.query, parameters });
  };
}

/**
 * A statement written with Kysely's `sql` tag, for a template: `raw(db, sql\`…${$.name}…\`)`. Lets
 * one SQL text be run on its own through a template and also be nested in a larger statement
 * (a data-modifying CTE on PostgreSQL).
 */
export function raw<Row>(db: Db, statement: RawBuilder<Row>): Compilable<Row> {
  return { compile: () => statement.compile(db) };
}
