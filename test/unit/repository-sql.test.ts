// The committed docs/sql/<module>.sql are the statements the repositories send today: a query
// change without regenerating them fails here, so a review always sees the SQL that runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPOSITORIES, repositorySql, SQL_DOCS_DIR } from '../../scripts/repository-sql.js';

const REGENERATE = 'stale: run `npx tsx scripts/repository-sql.ts`';

describe('docs/sql', () => {
  for (const module of Object.keys(REPOSITORIES)) {
    it(`${module}.sql matches ${REPOSITORIES[module].source}`, async () => {
      const expected = await repositorySql(module);
      assert.match(expected, /^(select|insert|update|delete) /m, 'statements were recorded');
      assert.equal(readFileSync(resolve(SQL_DOCS_DIR, `${module}.sql`), 'utf8'), expected, REGENERATE);
    });
  }

  it('holds a file for each listed repository and nothing else', () => {
    assert.deepEqual(
      readdirSync(SQL_DOCS_DIR).sort(),
      Object.keys(REPOSITORIES)
        .map((m) => `${m}.sql`)
        .sort(),
      REGENERATE,
    );
  });

  it('lists every function each repository exports that sends a statement', async () => {
    for (const [module, { source, calls }] of Object.entries(REPOSITORIES)) {
      const exported = await import(resolve(import.meta.dirname, '../..', source));
      const listed = new Set(Object.keys(calls).map((name) => name.split(' ')[0]));
      const missing = Object.entries(exported)
        .filter(([name, value]) => typeof value === 'function' && !listed.has(name))
        .map(([name]) => name);
      assert.deepEqual(
        missing.filter((name) => !PURE[module]?.includes(name)),
        [],
        `${module}: list these in scripts/repository-sql.ts`,
      );
    }
  });
});

/** Exported functions that build or shape values and send nothing. */
const PURE: Record<string, string[]> = {
  posts: ['sortKeyOf', 'postRow'],
  webhooks: ['waitingReason'],
};
