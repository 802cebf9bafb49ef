// `blog-api media sync --from-dir <dir>`: from the local folder to an S3-compatible bucket (a
// real s3rver), as a separate process like an operator runs it; idempotent, with JSON counts.
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { startS3 } from '../helpers/s3-server.js';
import { upload, uniqueJpeg } from '../api/media-support.js';
import { runCli as cli } from '../helpers/cli.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const s3 = await startS3();
after(() => s3.close());

describeTenantApp('blog-api media sync', { tenant: false }, (suite) => {
  it('copies every live image from the folder into the bucket, once, and counts what it did', async () => {
    const { store, key } = await suite.t.tenant();
    const images = [];
    for (let i = 0; i < 4; i++)
      images.push((await upload(suite.t, key, await uniqueJpeg({ r: i * 40, g: 10, b: 10 }))).json());
    // One is deleted (not copied), one has lost its file (reported missing).
    assert.equal(
      (await suite.t.request({ method: 'DELETE', url: `/v1/media/images/${images[3].id}`, key })).statusCode,
      204,
    );
    rmSync(join(suite.t.config.mediaDir, store.handle, images[2].basename));

    const s3Env = { ...s3.env, S3_PREFIX: `sync-${suite.target.name}` };
    const env = { DATABASE_URL: suite.t.config.database.url, ...s3Env };
    const first = await cli(env, 'media', 'sync', '--from-dir', suite.t.config.mediaDir);
    assert.equal(first.code, 0, first.stderr);
    const counts = JSON.parse(first.stdout);
    assert.deepEqual(
      { ...counts, problems: undefined },
      { images: 3, copied: 2, present: 0, missing: 1, failed: 0, problems: undefined },
    );
    assert.deepEqual(counts.problems, [
      {
        image_id: images[2].id,
        path: `${store.handle}/${images[2].basename}`,
        issue: 'not in the source folder nor in the store',
      },
    ]);

    for (const image of images.slice(0, 2)) {
      const object = await s3.object(`sync-${suite.target.name}/${store.handle}/${image.basename}`);
      assert.ok(
        object?.equals(readFileSync(join(suite.t.config.mediaDir, store.handle, image.basename))),
        'the object holds the file’s bytes exactly',
      );
    }
    assert.equal(await s3.object(`sync-${suite.target.name}/${store.handle}/${images[3].basename}`), null);

    // An instance configured for the bucket serves the copied images at their unchanged paths.
    const ctx = await createContext(
      { ...loadConfig({ PUBLIC_BASE_URL: 'http://blog.test', ...s3Env }), database: suite.t.config.database },
      { clock: suite.t.clock },
    );
    const app = await buildApp(ctx, { logLevel: 'silent' });
    try {
      const served = await app.inject({ method: 'GET', url: images[0].path });
      assert.equal(served.statusCode, 200);
      assert.ok(
        served.rawPayload.equals(readFileSync(join(suite.t.config.mediaDir, store.handle, images[0].basename))),
      );
    } finally {
      await app.close();
      await ctx.close();
    }

    const again = await cli(env, 'media', 'sync', '--from-dir', suite.t.config.mediaDir);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(
      { ...JSON.parse(again.stdout), problems: undefined },
      { images: 3, copied: 0, present: 2, missing: 1, failed: 0, problems: undefined },
    );

    // The way back (a backup's export): the two files come out byte for byte; the one lost
    // everywhere makes the export fail (exit 1) and is named, since a backup must not lack files
    // silently.
    const backup = join(suite.t.config.mediaDir, '..', `export-${suite.target.name}`);
    const exported = await cli(env, 'media', 'export', '--to-dir', backup);
    assert.equal(exported.code, 1);
    assert.match(exported.stderr, /the export is incomplete \(run it again; missing files are lost from the store\)/);
    assert.ok(exported.stderr.includes(`"images":3,"copied":2,"present":0,"missing":1,"failed":0`), exported.stderr);
    assert.ok(
      exported.stderr.includes(
        `"path":"${store.handle}/${images[2].basename}","issue":"not in the store nor in the folder"`,
      ),
      exported.stderr,
    );
    for (const image of images.slice(0, 2)) {
      assert.ok(
        readFileSync(join(backup, store.handle, image.basename)).equals(
          readFileSync(join(suite.t.config.mediaDir, store.handle, image.basename)),
        ),
      );
    }
    rmSync(backup, { recursive: true, force: true });
  });

  it('refuses a folder that does not exist, and a missing --from-dir', async () => {
    const env = { DATABASE_URL: suite.t.config.database.url, ...s3.env };
    const nowhere = await cli(env, 'media', 'sync', '--from-dir', '/nonexistent/media');
    assert.equal(nowhere.code, 1);
    assert.match(nowhere.stderr, /--from-dir \/nonexistent\/media is not a folder/);
    const usage = await cli(env, 'media', 'sync');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--from-dir is required/);
  });
});
