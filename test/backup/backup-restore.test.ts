// Backup and restore as docs/deployment.md ("Backup and restore") writes them: the shell blocks
// of that page are extracted and run by bash as they are, against PostgreSQL (its own
// database and the two roles of deploy/postgres-roles.sh), a Redis of its own and an S3-compatible
// server (s3rver). The service runs as a real process on the service's role. After the backup the
// data changes (and is read, so caches hold it), then the database and the bucket are lost; after
// the restore every post and image of the backup is served as it was, and nothing from after it.
// The restore deletes the deployment's Redis keys by REDIS_PREFIX and leaves another deployment's
// keys in the same Redis database alone, whatever characters either prefix holds.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { describeOnPostgres, POSTGRES_ADMIN_URL } from '../helpers/engines.js';
import { send } from '../helpers/fetch-response.js';
import { unusedPort } from '../helpers/ports.js';
import { redisReachable } from '../helpers/redis.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { uniqueJpeg } from '../api/media-support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The ```sh block that follows `<!-- test/backup/backup-restore.test.ts: <name> -->` in docs/deployment.md. */
function documentedBlock(name: string): string {
  const doc = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8');
  const marker = `<!-- test/backup/backup-restore.test.ts: ${name} -->\n\`\`\`sh\n`;
  const start = doc.indexOf(marker);
  assert.ok(start >= 0, `docs/deployment.md has the ${name} block`);
  const body = doc.slice(start + marker.length);
  return body.slice(0, body.indexOf('```'));
}

/** Runs a block with bash -e; asynchronous, since the S3 server answers from this process. */
async function runBlock(name: string, env: Record<string, string>): Promise<void> {
  const run = await runAsync('bash', ['-euo', 'pipefail', '-c', documentedBlock(name)], env);
  assert.equal(run.code, 0, `the ${name} block failed\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
}

function runAsync(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function imageForm(data: Buffer): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

describeOnPostgres('backup and restore as docs/deployment.md writes them', () => {
  const admin = new URL(POSTGRES_ADMIN_URL);
  const suffix = randomLowerAlnum(8);
  const names = { BLOG_DB: `blog_bk_${suffix}`, BLOG_OWNER: `blog_owner_${suffix}`, BLOG_APP: `blog_app_${suffix}` };
  const passwords = {
    BLOG_OWNER_PASSWORD: `owner-${randomLowerAlnum(12)}`,
    BLOG_APP_PASSWORD: `app-${randomLowerAlnum(12)}`,
  };
  const dbUrl = (role: string, password: string) =>
    `postgres://${role}:${password}@${admin.hostname}:${admin.port || 5432}/${names.BLOG_DB}`;
  const ownerUrl = dbUrl(names.BLOG_OWNER, passwords.BLOG_OWNER_PASSWORD);
  const appUrl = dbUrl(names.BLOG_APP, passwords.BLOG_APP_PASSWORD);
  /** psql, dropdb and the roles script connect as the administrator. */
  const adminEnv = {
    PGHOST: admin.hostname,
    PGPORT: admin.port || '5432',
    PGUSER: decodeURIComponent(admin.username || 'postgres'),
    PGPASSWORD: decodeURIComponent(admin.password),
    POSTGRES_USER: decodeURIComponent(admin.username || 'postgres'),
    POSTGRES_DB: admin.pathname.slice(1) || 'postgres',
  };

  let work: string;
  let s3: TestS3;
  let redis: ChildProcess;
  let redisUrl: string;
  let serviceEnv: Record<string, string>;
  let blockEnv: Record<string, string>;
  let server: ServerProcess;
  let key: string;

  /** Runs the operator CLI (from source) the way the blocks do: `blog-api` on PATH. */
  const cli = (...args: string[]) => {
    const run = spawnSync('blog-api', args, { cwd: ROOT, env: blockEnv, encoding: 'utf8' });
    assert.equal(run.status, 0, `blog-api ${args.join(' ')}\n${run.stdout}${run.stderr}`);
    return JSON.parse(run.stdout);
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'blogapi-backup-'));
    s3 = await startS3();
    const port = await unusedPort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    redisUrl = `redis://127.0.0.1:${port}`;
    for (let i = 0; !(await redisReachable(redisUrl)); i++) {
      assert.ok(i < 200, 'the test Redis starts');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // `blog-api` as the docs use it: the CLI from this checkout.
    const bin = join(work, 'bin');
    spawnSync('mkdir', ['-p', bin]);
    writeFileSync(
      join(bin, 'blog-api'),
      `#!/bin/sh\nexec "${process.execPath}" --import tsx "${join(ROOT, 'src/cli/bin.ts')}" "$@"\n`,
    );
    chmodSync(join(bin, 'blog-api'), 0o755);

    serviceEnv = {
      DATABASE_URL: appUrl,
      REDIS_URL: redisUrl,
      ...s3.env,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      PUBLIC_BASE_URL: 'http://blog.test',
      MIGRATE_ON_START: 'false',
    };
    blockEnv = {
      ...(process.env as Record<string, string>),
      ...adminEnv,
      ...names,
      ...passwords,
      ...serviceEnv,
      PATH: `${bin}:${process.env.PATH}`,
      OWNER_URL: ownerUrl,
      BACKUP_DIR: join(work, 'backup'),
    };
    spawnSync('mkdir', ['-p', blockEnv.BACKUP_DIR!]);

    // As compose.yaml does it: the roles script, then migrations as the owner; the service and
    // the everyday CLI as the service's role.
    const roles = spawnSync('bash', ['deploy/postgres-roles.sh'], { cwd: ROOT, env: blockEnv, encoding: 'utf8' });
    assert.equal(roles.status, 0, roles.stderr);
    const asService = spawnSync('blog-api', ['migrate'], { cwd: ROOT, env: blockEnv, encoding: 'utf8' });
    assert.match(asService.stderr, /permission denied for schema public/, 'the service role cannot migrate');
    const ownerCli = spawnSync('blog-api', ['migrate'], {
      cwd: ROOT,
      env: { ...blockEnv, DATABASE_URL: ownerUrl },
      encoding: 'utf8',
    });
    assert.equal(ownerCli.status, 0, ownerCli.stderr);
    cli('store', 'create', '--handle', `bk-${suffix}`, '--name', 'Backup');
    key = cli(
      'key',
      'issue',
      '--store',
      `bk-${suffix}`,
      '--app',
      'backup-test',
      '--scopes',
      'read_blog,write_blog,publish_blog,write_media',
    ).key;
    server = await startServerProcess(serviceEnv);
  });

  after(async () => {
    await server?.stop();
    redis?.kill('SIGKILL');
    await s3?.close();
    spawnSync('dropdb', ['--if-exists', '--force', names.BLOG_DB], { env: blockEnv });
    spawnSync(
      'psql',
      ['-qc', `DROP ROLE IF EXISTS ${names.BLOG_OWNER}`, '-c', `DROP ROLE IF EXISTS ${names.BLOG_APP}`],
      { env: { ...blockEnv, PGDATABASE: adminEnv.POSTGRES_DB } },
    );
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the service role owns nothing and cannot change the schema', () => {
    const run = spawnSync('psql', [appUrl, '-qtAc', 'CREATE TABLE intruder (id int)'], { encoding: 'utf8' });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /permission denied for schema public/);
    const owned = spawnSync(
      'psql',
      [
        ownerUrl,
        '-qtAc',
        `SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner <> '${names.BLOG_OWNER}'`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(owned.stdout.trim(), '0');
  });

  it('restores every post and image of the backup, and serves nothing from after it', async () => {
    const base = server.baseUrl;
    // Before the backup: posts (some published, one with an image in its body) and images.
    const images: Array<{ id: string; path: string; bytes: Buffer }> = [];
    for (let i = 0; i < 4; i++) {
      const bytes = await uniqueJpeg({ r: 40 * i, g: 90, b: 200 - 30 * i });
      const up = await send(base, 'POST', '/v1/media/images', { key, form: imageForm(bytes) });
      assert.equal(up.statusCode, 201, up.body);
      // The service re-encodes uploads: the bytes to compare with are the ones it serves.
      const served = await send(base, 'GET', up.json().path);
      assert.equal(served.statusCode, 200);
      images.push({ id: up.json().id, path: up.json().path, bytes: served.rawPayload });
    }
    const postIds: number[] = [];
    for (let i = 0; i < 12; i++) {
      const body_html =
        i === 0
          ? `<p>With a picture</p><img src="${images[0]!.path}" alt="one">`
          : `<p>Post ${i} before the backup</p>`;
      const created = await send(base, 'POST', '/v1/blog/posts', {
        key,
        body: { title: `Before ${i}`, body_html },
        headers: { 'idempotency-key': `bk-${i}` },
      });
      assert.equal(created.statusCode, 201, created.body);
      postIds.push(created.json().id);
      if (i % 2 === 0)
        assert.equal(
          (await send(base, 'POST', `/v1/blog/posts/${created.json().id}/publish`, { key })).statusCode,
          200,
        );
    }
    const asBackedUp = new Map<number, unknown>();
    for (const id of postIds) {
      const read = await send(base, 'GET', `/v1/blog/posts/${id}`, { key });
      assert.equal(read.statusCode, 200);
      asBackedUp.set(id, read.json());
    }
    const listBackedUp = (await send(base, 'GET', '/v1/blog/posts?limit=50', { key })).json();

    await runBlock('backup', blockEnv);

    // After the backup: changes that the restore must undo, each read so that caches hold it.
    for (const id of postIds.slice(0, 3))
      assert.equal(
        (await send(base, 'PATCH', `/v1/blog/posts/${id}`, { key, body: { title: `Changed after the backup ${id}` } }))
          .statusCode,
        200,
      );
    const later = await send(base, 'POST', '/v1/blog/posts', {
      key,
      body: { title: 'After the backup', body_html: '<p>new</p>' },
      headers: { 'idempotency-key': 'bk-later' },
    });
    assert.equal(later.statusCode, 201);
    assert.equal((await send(base, 'DELETE', `/v1/media/images/${images[3]!.id}`, { key })).statusCode, 204);
    const laterImage = await send(base, 'POST', '/v1/media/images', {
      key,
      form: imageForm(await uniqueJpeg({ r: 1, g: 2, b: 3 })),
    });
    assert.equal(laterImage.statusCode, 201);
    const staleEtags = new Map<number, string>();
    for (const id of postIds.slice(0, 3)) {
      const read = await send(base, 'GET', `/v1/blog/posts/${id}`, { key });
      assert.match(read.json().title, /^Changed after the backup/);
      staleEtags.set(id, String(read.headers.etag));
    }
    assert.equal((await send(base, 'GET', '/v1/blog/posts?limit=50', { key })).json().data.length, 13);

    // The loss: the processes stop (step 1 of the restore), the bucket is emptied. The restore
    // block drops the database itself.
    assert.equal(await server.stop(), 0);
    await s3.clear();
    // Another deployment shares this Redis database under a prefix of its own.
    const redisAdmin = new Redis(redisUrl);
    try {
      await redisAdmin.set('staging:rate:neighbour', '7');
      assert.ok((await redisAdmin.keys('blogapi:*')).length > 0, 'the service wrote keys under its prefix');
      await runBlock('restore', blockEnv);
      await runBlock('redis', blockEnv);
      assert.deepEqual(await redisAdmin.keys('blogapi:*'), [], "the deployment's keys are gone");
      assert.equal(await redisAdmin.get('staging:rate:neighbour'), '7', "another deployment's keys stay");
    } finally {
      redisAdmin.disconnect();
    }
    server = await startServerProcess(serviceEnv);
    const restored = server.baseUrl;

    for (const id of postIds) {
      const read = await send(restored, 'GET', `/v1/blog/posts/${id}`, { key });
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), asBackedUp.get(id), `post ${id} as it was backed up`);
    }
    for (const [id, etag] of staleEtags) {
      const conditional = await send(restored, 'GET', `/v1/blog/posts/${id}`, {
        key,
        headers: { 'if-none-match': etag },
      });
      assert.equal(conditional.statusCode, 200, `post ${id}: the validator from after the backup does not match`);
    }
    assert.deepEqual((await send(restored, 'GET', '/v1/blog/posts?limit=50', { key })).json(), listBackedUp);
    assert.equal((await send(restored, 'GET', `/v1/blog/posts/${later.json().id}`, { key })).statusCode, 404);
    for (const image of images) {
      const served = await send(restored, 'GET', image.path);
      assert.equal(served.statusCode, 200, `${image.path} is served again`);
      assert.ok(served.rawPayload.equals(image.bytes), `${image.path}: the bytes served before the backup`);
      const stored = await s3.object(`${s3.prefix}${image.path.split('/').slice(-2).join('/')}`);
      assert.ok(stored && served.rawPayload.equals(stored), `${image.path}: the bucket holds the served bytes`);
    }
    assert.equal(
      (await send(restored, 'GET', laterImage.json().path)).statusCode,
      404,
      'an image from after the backup is not served',
    );
    // Redis was emptied, and the restored database works with the service's role: a write succeeds.
    const write = await send(restored, 'POST', '/v1/blog/posts', {
      key,
      body: { title: 'After the restore', body_html: '<p>ok</p>' },
      headers: { 'idempotency-key': 'bk-after-restore' },
    });
    assert.equal(write.statusCode, 201, write.body);
  });

  it("the Redis block deletes every key under REDIS_PREFIX, in batches, and no other, whatever the prefix's characters", async () => {
    const redisAdmin = new Redis(redisUrl);
    try {
      // Glob characters in the prefix: unescaped, its pattern would also match the neighbours.
      const prefix = 'bk[x]*?\\:';
      const ours = Array.from({ length: 1_234 }, (_, i) => `${prefix}rate:${i}`);
      ours.push(`${prefix}a key with spaces, 'quotes' and "more"`);
      const neighbours = ['bkx-other:rate:1', 'bk[x]-other\\:1', 'bk[x]*?\\', 'other:bk[x]*?\\:1'];
      await redisAdmin.mset(Object.fromEntries([...ours, ...neighbours].map((key) => [key, '1'])));
      await runBlock('redis', { ...blockEnv, REDIS_PREFIX: prefix });
      const left = await redisAdmin.keys('*');
      assert.deepEqual(
        left.filter((key) => key.startsWith(prefix)),
        [],
      );
      assert.deepEqual(left.filter((key) => neighbours.includes(key)).sort(), [...neighbours].sort());
      await redisAdmin.del(...neighbours);
    } finally {
      redisAdmin.disconnect();
    }
  });
});
