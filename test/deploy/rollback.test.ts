// Rolling back one release without restoring the database: the schema is the newest one plus a
// migration of a later release (a fixture) that this build does not know. Marked expand-only,
// the server starts with MIGRATE_ON_START=true (and =false) and `blog-api migrate` succeeds;
// not marked, all three refuse and name it.
import { it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest, releaseMigrations } from '../../src/db/migrate.js';
import { runCli } from '../helpers/cli.js';
import { describeEachEngine, type EngineTarget } from '../helpers/engines.js';
import { spawnMain, startServerProcess } from '../helpers/server-process.js';

const LATER = '9999-later-release-fixture';

/** A database migrated by a later release: this release's migrations and LATER. */
async function migratedByLaterRelease(target: EngineTarget, expandOnly: boolean) {
  const created = await target.create({ empty: true });
  const handle = openDatabase(created.database);
  try {
    const later = {
      name: LATER,
      expandOnly,
      migration: {
        up: async (db: Kysely<any>) => {
          await db.schema
            .createTable('later_release_notes')
            .addColumn('id', 'integer', (c) => c.primaryKey())
            .execute();
        },
      },
    };
    await migrateToLatest(handle, [...releaseMigrations(handle.engine), later]);
  } finally {
    await handle.close();
  }
  return created;
}

describeEachEngine('rolling back one release', (target) => {
  it('runs on a schema with a later expand-only migration: the server with MIGRATE_ON_START=true and =false, and `blog-api migrate`', async () => {
    const { database, drop } = await migratedByLaterRelease(target, true);
    const mediaDir = mkdtempSync(join(tmpdir(), 'blogapi-rollback-'));
    try {
      for (const migrateOnStart of ['true', 'false']) {
        const server = await startServerProcess({
          DATABASE_URL: database.url,
          MIGRATE_ON_START: migrateOnStart,
          MEDIA_DIR: mediaDir,
        });
        try {
          const ready = await fetch(`${server.baseUrl}/readyz`);
          assert.equal(ready.status, 200, await ready.text());
        } finally {
          assert.equal(await server.stop(), 0, server.stderr());
        }
      }
      const migrated = await runCli({ DATABASE_URL: database.url }, 'migrate');
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.deepEqual(migrated.json, { migrated: true, applied: [] });
    } finally {
      rmSync(mediaDir, { recursive: true, force: true });
      await drop();
    }
  });

  it('refuses a schema with a later migration not marked expand-only, naming it', async () => {
    const { database, drop } = await migratedByLaterRelease(target, false);
    try {
      const refusal = new RegExp(
        `not marked compatible with the release before them: ${LATER}; run a release that has them`,
      );
      for (const migrateOnStart of ['true', 'false']) {
        const spawned = spawnMain({ DATABASE_URL: database.url, MIGRATE_ON_START: migrateOnStart });
        assert.equal(await spawned.exited, 1);
        assert.match(spawned.stderr(), refusal);
      }
      const migrated = await runCli({ DATABASE_URL: database.url }, 'migrate');
      assert.equal(migrated.code, 1);
      assert.match(migrated.stderr, refusal);
    } finally {
      await drop();
    }
  });
});
