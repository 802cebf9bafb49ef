// SQL belongs to repositories (eslint.config.js): the project's ESLint configuration refuses a
// Kysely query or the `sql` tag written anywhere else in src/, and accepts the same code in a
// `*-repository.ts` file, in src/db/ and in a listed exception.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const root = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

const QUERY = `import type { Db } from '../../db/database.js';
export async function titles(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('posts').select('title').execute();
  return rows.map((r) => r.title);
}
`;
const SQL_TAG = `import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
export async function one(db: Db): Promise<unknown> {
  return (await sql\`SELECT 1\`.execute(db)).rows;
}
`;

/** The messages of the SQL rule for `code` linted as the file at `path`. */
async function sqlProblems(code: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], 'the fixture parses');
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports')
    .map((m) => `${m.line}: ${m.message}`);
}

describe('the SQL lint rule', () => {
  it('refuses a query builder outside a repository', async () => {
    assert.deepEqual(await sqlProblems(QUERY, 'src/modules/posts/post-content.ts'), [
      '3: SQL belongs in a *-repository.ts file (or src/db/): move the query there and call it.',
    ]);
  });

  it('refuses the sql tag outside a repository, at its import and its use', async () => {
    const problems = await sqlProblems(SQL_TAG, 'src/modules/posts/post-service.ts');
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['1', '4'],
      problems.join('\n'),
    );
  });

  it('accepts both in a repository, in src/db/ and in a listed exception', async () => {
    for (const path of [
      'src/modules/posts/post-repository.ts',
      'src/db/query-template.ts',
      'src/modules/posts/create-statement.ts',
    ]) {
      assert.deepEqual(await sqlProblems(QUERY, path), [], path);
      assert.deepEqual(await sqlProblems(SQL_TAG, path), [], path);
    }
  });
});
