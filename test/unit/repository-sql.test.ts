// The committed docs/sql/<module>.sql are the statements the repositories send today: a query
// change without regenerating them fails here, so a review always sees the SQL that runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { globSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPOSITORIES, repositorySql, SQL_DOCS_DIR } from '../../scripts/repository-sql.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** A query builder's start or the sql tag (eslint.config.js has the rule). */
const BUILDS_SQL = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^`]*>)?`/;

const REGENERATE = 'stale: run `npx tsx scripts/repository-sql.ts`';

describe('docs/sql', () => {
  for (const module of Object.keys(REPOSITORIES)) {
    it(`${module}.sql matches ${REPOSITORIES[module].source}`, async () => {
      const expected = await repositorySql(module);
      assert.match(expected, /^\s*(select|insert|update|delete|with) /im, 'statements were recorded');
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

  it('covers every file the lint rule lets build SQL, outside src/db/', async () => {
    // eslint.config.js (plain JavaScript) lists the files that may build SQL besides repositories.
    const { SQL_EXCEPTIONS } = (await import(resolve(ROOT, 'eslint.config.js'))) as {
      SQL_EXCEPTIONS: Record<string, string>;
    };
    const mayBuildSql = [
      ...globSync('src/**/*-repository.ts', { cwd: ROOT }),
      ...Object.keys(SQL_EXCEPTIONS).flatMap((p) => globSync(p, { cwd: ROOT })),
    ];
    const buildsSql = [...new Set(mayBuildSql)]
      .filter((file) => BUILDS_SQL.test(readFileSync(resolve(ROOT, file), 'utf8')))
      .sort();
    const recorded = new Set(Object.values(REPOSITORIES).map((r) => r.source));
    assert.deepEqual(
      buildsSql.filter((file) => !recorded.has(file) && !NOT_RECORDED.includes(file)),
      [],
      'list these in scripts/repository-sql.ts',
    );
    assert.deepEqual(
      NOT_RECORDED.filter((file) => recorded.has(file) || !buildsSql.includes(file)),
      [],
      'no longer NOT_RECORDED',
    );
  });

  it('lists every function each repository exports that sends a statement', async () => {
    for (const [module, { source, calls }] of Object.entries(REPOSITORIES)) {
      const exported = await import(resolve(import.meta.dirname, '../..', source));
      // `Class.method (variant)` lists the class.
      const listed = new Set(Object.keys(calls).map((name) => name.split(/[ .]/)[0]));
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

/**
 * Exported functions that build or shape values and send nothing: SQL fragments another
 * statement splices in (their SQL shows in that statement's file), ids, bodies and errors.
 */
const PURE: Record<string, string[]> = {
  posts: ['sortKeyOf', 'postRow', 'postInsert', 'categoryLinksInsert'],
  webhooks: ['waitingReason'],
  'duplicate-window': ['claimFingerprintSql', 'duplicateError'],
  'post-search': ['matchesTerms', 'searchTerms', 'searchText', 'searchRowInsert'],
  'audit-recorder': ['insertAuditSql'],
  'quota-service': ['takeUnitSql', 'quotaExceeded'],
  'delivery-enqueue': ['newDeliveryIdPrefix', 'enqueueSql'],
  'delivery-queue': ['queueRoomSql'],
  'event-outbox': ['newEventId', 'insertEventSql', 'insertSubscriberDeliveriesSql', 'eventBody'],
  'delivery-claim': ['takeTurns'],
  'event-feed': ['counterQuery', 'typeCondition', 'presentEvent'],
  'event-types': ['isEventType', 'subscribes'],
  idempotency: ['completeRecordSql'],
  versions: ['versionsFromRow'],
  storefront: ['postsWithCover', 'postCategories'],
};

/**
 * Files that build SQL whose statements are not recorded (none: the statements of objects with
 * state are recorded by building the object in scripts/repository-sql.ts). A file listed here
 * must say why its statements cannot be shown.
 */
const NOT_RECORDED: string[] = [];
