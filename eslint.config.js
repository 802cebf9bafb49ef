// ESLint: typescript-eslint's type-aware rules over the server, tests, benchmark, scripts and SDK.
// Formatting belongs to Prettier (.prettierrc.json); eslint-config-prettier, last below, switches
// off every stylistic rule so the two never disagree. See docs/architecture.md, "Lint and format".
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Where a query starts: `db.selectFrom(…)` and the like. */
const BUILDER_STARTS =
  '/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|executeTakeFirst|executeTakeFirstOrThrow)$/';
const SQL_MESSAGE = 'SQL belongs in a *-repository.ts file (or src/db/): move the query there and call it.';

/** Files outside repositories that may build SQL, each with why. Keep it short. */
export const SQL_EXCEPTIONS = {
  // Statements shared by PostgreSQL's one-statement post create (docs/performance.md): each is
  // the rule's own SQL, spliced into create-statement.ts as a CTE and run alone elsewhere.
  'src/modules/posts/create-statement.ts': 'the post create as one data-modifying CTE',
  'src/modules/posts/duplicate-window.ts': "the fingerprint claim's upsert, a CTE of the create",
  'src/modules/posts/post-search.ts': "the search rows and the engines' different match SQL",
  'src/modules/audit/audit-recorder.ts': "the audit row's insert, a CTE of the create",
  'src/modules/quotas/quota-service.ts': "the quota unit's conditional upsert, a CTE of the create",
  'src/modules/idempotency/idempotency-service.ts': "the replay record's completion, a CTE of the create",
  'src/modules/events/*.ts': 'the outbox, the enqueue statement, the queue bound and the feed: CTEs of the create',
  // Work whose SQL is the work: claiming with SKIP LOCKED, recovery, per-engine batch deletes.
  'src/modules/webhooks/{attempt-log,delivery-claim,delivery-recovery,delivery-worker}.ts':
    "the delivery worker's claim, attempts and recovery statements",
  'src/modules/housekeeping/*.ts': 'batched deletes of expired rows and the lease, per engine',
  'src/modules/media/media-cleanup.ts': 'the owed file removals, claimed and forgotten in batches',
  'src/cache/{versions,shared-versions}.ts': 'reading cache_versions on every request, per engine',
  'src/modules/storefront/view-counter.ts': "the view counter's additive batch update",
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'data/',
      '.node/',
      'coverage/',
      'test-artifacts/',
      'test/fixtures/',
      // Written by `npm run sdk:types` from the OpenAPI document.
      'sdk/src/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked against the nearest tsconfig.json: the root one (src, test, bench,
        // scripts) or sdk/tsconfig.json (sdk/src).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its rejection. node:test's describe/it/test return promises
      // the runner itself awaits, which is how its documentation uses them.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      // `_name` marks a value left out on purpose: `const { secret: _, ...shown } = row` drops a
      // field, `_engine` keeps a parameter a caller passes.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // An async function without await is how this code implements an interface that returns a
      // promise (`close: async () => {}`): a throw inside it still becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // With noUncheckedIndexedAccess off, `rows[0]!` is not needed by the compiler; the `!` stays
      // to tell the reader the row is known to exist (a query that always returns one row).
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Input validation and the HTML filter match control characters on purpose.
      'no-control-regex': 'off',
      // String(value) is how this code turns a thrown or unknown value into message text, where
      // "[object Object]" is an acceptable worst case. Template literals stay checked (below).
      '@typescript-eslint/no-base-to-string': 'off',
      // A list in a message reads well as `a,b,c`.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allowAny: true,
          allowBoolean: true,
          allowNullish: true,
          allowNumber: true,
          allowRegExp: true,
          allowArray: true,
        },
      ],
      // An abort rejects with the signal's reason, whatever it is, as fetch does.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  // SQL belongs to repositories: Kysely's query builders and the `sql` tag only in
  // `*-repository.ts`, `src/db/` (migrations included) and the files named in SQL_EXCEPTIONS below
  // (docs/architecture.md, "Modules and repositories"). test/unit/sql-boundary.test.ts shows the
  // rule failing on a query outside them.
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', importNames: ['sql', 'CompiledQuery'], message: SQL_MESSAGE }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression > MemberExpression.callee > Identifier.property[name=${BUILDER_STARTS}]`,
          message: SQL_MESSAGE,
        },
        { selector: 'TaggedTemplateExpression[tag.name="sql"]', message: SQL_MESSAGE },
      ],
    },
  },
  {
    files: ['src/**/*-repository.ts', 'src/db/**/*.ts', ...Object.keys(SQL_EXCEPTIONS)],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    // Kysely's documented migration type: a migration must not depend on today's schema types.
    files: ['src/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests read response bodies with light-my-request's `res.json()`, typed `any`, and assert on
    // them field by field: over two thousand reads that a type would only restate. The no-unsafe
    // family stays on everywhere else; no-floating-promises and no-misused-promises stay on here.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // Plain JavaScript files belong to no tsconfig, so they get the rules that need no types.
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
