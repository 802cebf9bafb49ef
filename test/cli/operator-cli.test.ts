// The operator CLI as a separate process (as in production) against the database a running
// app instance uses: changes apply to the app's very next request.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from '../helpers/ports.js';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import { runCli } from '../helpers/cli.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const cli = (databaseUrl: string, ...args: string[]) => runCli({ DATABASE_URL: databaseUrl }, ...args);

describeTenantApp('operator CLI', { tenant: false }, (suite) => {
  let db: string;
  before(async () => {
    db = suite.t.config.database.url;
  });

  it('creates and updates stores, printing one JSON object', async () => {
    const created = await cli(
      db,
      'store',
      'create',
      '--handle',
      'acme',
      '--name',
      'Acme Shop',
      '--no-media',
      '--no-emoji',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim().split('\n').length, 1);
    assert.equal(created.json.handle, 'acme');
    assert.deepEqual(created.json.features, { blog_categories: true, media_upload: false, webhooks: true });
    assert.equal(created.json.certified, true);
    assert.equal(created.json.limits.title_allows_emoji, false);
    const updated = await cli(
      db,
      'store',
      'update',
      'acme',
      '--media',
      'on',
      '--writes-paused',
      'on',
      '--posts-per-day',
      '7',
      '--image-max-width',
      '800',
      '--certified',
      'off',
    );
    assert.equal(updated.code, 0, updated.stderr);
    assert.deepEqual(
      [
        updated.json.features.media_upload,
        updated.json.writes_paused,
        updated.json.quotas.posts_per_day,
        updated.json.limits.image_max_width,
        updated.json.certified,
      ],
      [true, true, 7, 800, false],
    );
  });

  it('reports usage errors (exit 2) and impossible commands (exit 1) on stderr', async () => {
    const dup = await cli(db, 'store', 'create', '--handle', 'acme', '--name', 'Again');
    assert.equal(dup.code, 1);
    assert.equal(dup.stdout, '');
    assert.match(dup.stderr, /already exists/);
    const badFlag = await cli(db, 'store', 'update', 'acme', '--media', 'maybe');
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /--media takes on or off/);
    const badScope = await cli(db, 'key', 'issue', '--store', 'acme', '--app', 'x', '--scopes', 'read_blog,admin');
    assert.equal(badScope.code, 2);
    assert.match(badScope.stderr, /unknown: admin/);
    const noStore = await cli(db, 'key', 'issue', '--store', 'nope', '--app', 'x', '--scopes', 'read_blog');
    assert.equal(noStore.code, 1);
    assert.match(noStore.stderr, /no store with handle "nope"/);
  });

  it('issues a key shown once (only its hash is stored), lists keys without secrets, revokes at once', async () => {
    await cli(db, 'store', 'create', '--handle', 'keys-shop', '--name', 'Keys');
    const issued = await cli(
      db,
      'key',
      'issue',
      '--store',
      'keys-shop',
      '--app',
      'sync-bot',
      '--scopes',
      'write_blog,read_audit',
      '--read-per-minute',
      '7',
      '--write-per-minute',
      '3',
      '--concurrency',
      '2',
    );
    assert.equal(issued.code, 0, issued.stderr);
    assert.match(issued.json.key, /^svc_live_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
    assert.equal(issued.json.key_id, issued.json.key.slice(9, 17));
    assert.deepEqual(issued.json.scopes, ['read_published', 'read_blog', 'write_blog', 'read_audit']);
    assert.match(issued.json.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    const lifetime = Date.parse(issued.json.expires_at) - Date.now();
    assert.ok(Math.abs(lifetime - 365 * 86_400_000) < 120_000, `expires in 365 days (got ${lifetime} ms)`);
    const secret = issued.json.key.slice(-32);
    const row = await suite.t.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_id', '=', issued.json.key_id)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(secret), 'the secret is not stored');
    assert.equal(row.secret_hash.length, 64);

    const me = await suite.t.request({ method: 'GET', url: '/v1/me', key: issued.json.key });
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json().rate_limits, { read_per_minute: 7, write_per_minute: 3, concurrency: 2 });

    const listed = await cli(db, 'key', 'list', '--store', 'keys-shop');
    assert.equal(listed.code, 0);
    assert.ok(!listed.stdout.includes(secret));
    assert.equal(listed.json.keys[0].key_id, issued.json.key_id);

    const revoked = await cli(db, 'key', 'revoke', issued.json.key_id);
    assert.deepEqual(revoked.json, { key_id: issued.json.key_id, revoked: true });
    assertError(await suite.t.request({ method: 'GET', url: '/v1/me', key: issued.json.key }), 'unauthorized');
  });

  it('lists the active keys expiring within 30 days by store (what blog_api_keys_expiring counts), never a secret', async () => {
    for (const handle of ['exp-a', 'exp-b', 'exp-c'])
      await cli(db, 'store', 'create', '--handle', handle, '--name', handle);
    const issue = async (store: string, ...expiry: string[]) => {
      const issued = await cli(
        db,
        'key',
        'issue',
        '--store',
        store,
        '--app',
        'bot',
        '--scopes',
        'read_blog',
        ...expiry,
      );
      assert.equal(issued.code, 0, issued.stderr);
      return issued.json as { key: string; key_id: string };
    };
    const tenDays = await issue('exp-a', '--expires-in-days', '10');
    const threeDays = await issue('exp-a', '--expires-in-days', '3');
    await issue('exp-a', '--expires-in-days', '40');
    await issue('exp-a', '--no-expiry');
    const revoked = await issue('exp-a', '--expires-in-days', '5');
    assert.equal((await cli(db, 'key', 'revoke', revoked.key_id)).code, 0);
    const b = await issue('exp-b', '--expires-in-days', '29');
    await issue('exp-c');
    // Each key as `key list --store` prints it.
    const listedOf = async (store: string, ids: string[]) => {
      const keys = (await cli(db, 'key', 'list', '--store', store)).json.keys as Array<{ key_id: string }>;
      return ids.map((id) => keys.find((k) => k.key_id === id));
    };
    const a = { store: 'exp-a', keys: await listedOf('exp-a', [threeDays.key_id, tenDays.key_id]) };

    const one = await cli(db, 'key', 'list', '--expiring', '--store', 'exp-a');
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(one.json, { within_days: 30, keys: 2, stores: [a] });

    const all = await cli(db, 'key', 'list', '--expiring');
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.json.within_days, 30);
    const stores = all.json.stores as Array<{ store: string; keys: unknown[] }>;
    assert.deepEqual(
      stores.map((s) => s.store),
      [...stores.map((s) => s.store)].sort(),
    );
    assert.equal(
      all.json.keys,
      stores.reduce((n, s) => n + s.keys.length, 0),
    );
    assert.deepEqual(
      stores.filter((s) => s.store.startsWith('exp-')),
      [a, { store: 'exp-b', keys: await listedOf('exp-b', [b.key_id]) }],
    );
    for (const key of [tenDays, threeDays, b]) assert.ok(!all.stdout.includes(key.key.slice(-32)));

    const none = await cli(db, 'key', 'list', '--expiring', '--store', 'nope');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no store with handle "nope"/);
  });

  it('moves a key’s expiry (past = expired now, never = no expiry)', async () => {
    const issued = await cli(
      db,
      'key',
      'issue',
      '--store',
      'keys-shop',
      '--app',
      'rotating',
      '--scopes',
      'read_blog',
      '--no-expiry',
    );
    assert.equal(issued.json.expires_at, null);
    const past = await cli(db, 'key', 'update', issued.json.key_id, '--expires-at', '2020-01-01T00:00:00+08:00');
    assert.equal(past.code, 0, past.stderr);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/me', key: issued.json.key }), 'unauthorized');
    const never = await cli(db, 'key', 'update', issued.json.key_id, '--expires-at', 'never');
    assert.equal(never.json.expires_at, null);
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/me', key: issued.json.key })).statusCode, 200);
    const bad = await cli(db, 'key', 'update', issued.json.key_id, '--expires-at', '2027-01-01');
    assert.equal(bad.code, 2);
  });

  it('links and unlinks products in the back office, which the delete honours', async () => {
    const { store, key } = await suite.t.tenant();
    const post = await createPost(suite.t, key);
    const linked = await cli(db, 'post', 'link-product', store.handle, String(post.id), 'sku-42');
    assert.deepEqual(linked.json, { store: store.handle, post_id: post.id, product_ids: ['sku-42'] });
    assertError(
      await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${post.id}`, key }),
      'post_has_product_links',
      [{ field: 'post_id', issue: String(post.id) }],
    );
    const unlinked = await cli(db, 'post', 'unlink-product', store.handle, String(post.id), 'sku-42');
    assert.deepEqual(unlinked.json.product_ids, []);
    assert.equal(
      (await suite.t.request({ method: 'DELETE', url: `/v1/blog/posts/${post.id}`, key })).json().error.code,
      'confirmation_required',
    );
    const other = await cli(db, 'post', 'link-product', store.handle, '99999999', 'sku-1');
    assert.equal(other.code, 1);
    assert.match(other.stderr, /not_found/);
  });

  it('audits each product link change as post.updated without a key, and a repeat not at all', async () => {
    const { store, key } = await suite.t.tenant({ scopes: ['write_blog', 'read_audit'] });
    const post = await createPost(suite.t, key);
    const audited = async () =>
      (await suite.t.request({ method: 'GET', url: '/v1/audit/events', key }))
        .json()
        .data.filter((e: any) => e.action === 'post.updated' && e.resource_id === String(post.id));
    assert.equal((await cli(db, 'post', 'link-product', store.handle, String(post.id), 'sku-7')).code, 0);
    const again = await cli(db, 'post', 'link-product', store.handle, String(post.id), 'sku-7');
    assert.deepEqual(again.json.product_ids, ['sku-7']);
    const unlinked = await cli(db, 'post', 'unlink-product', store.handle, String(post.id), 'sku-7');
    assert.deepEqual(unlinked.json.product_ids, []);
    assert.equal((await cli(db, 'post', 'unlink-product', store.handle, String(post.id), 'sku-7')).code, 0);
    const events = await audited();
    assert.equal(events.length, 2, JSON.stringify(events));
    for (const event of events) {
      assert.deepEqual(
        [event.resource_type, event.key_id, event.application, event.request_id, event.changes],
        ['post', null, null, null, ['product_ids']],
      );
    }
  });

  it('runs migrations on demand (idempotent)', async () => {
    const res = await cli(db, 'migrate');
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(res.json, { migrated: true, applied: [] });
  });
});

describe('configuration errors', () => {
  it('stop the CLI with every problem listed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'store', 'show', 'x'], {
      env: { ...process.env, DATABASE_URL: 'mysql://x', PORT: 'abc', LOG_LEVEL: 'loud' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.on('close', r));
    assert.equal(code, 1);
    assert.match(stderr, /PORT must be an integer/);
    assert.match(stderr, /DATABASE_URL must start with sqlite: or postgres:\/\//);
    assert.match(stderr, /LOG_LEVEL must be one of/);
  });
});

describe('help and usage, per command', () => {
  // Help needs no database: the URL points nowhere on purpose.
  const nowhere = 'postgres://postgres@127.0.0.1:1/none';

  it('answers --help (or -h, or help <command>) with that command’s usage only, exit 0', async () => {
    for (const args of [
      ['key', 'issue', '--help'],
      ['key', 'issue', '-h'],
      ['help', 'key', 'issue'],
      ['key', 'issue', '--store', 'x', '--help'],
    ]) {
      const res = await cli(nowhere, ...args);
      assert.equal(res.code, 0, `${args.join(' ')}: ${res.stderr}`);
      assert.equal(res.stderr, '');
      assert.equal(
        res.stdout,
        'usage: blog-api key issue --store <h> --app <name> --scopes a,b,c [--expires-in-days N | --no-expiry]\n' +
          '                          [--read-per-minute N] [--write-per-minute N] [--concurrency N]\n',
        args.join(' '),
      );
    }
    const move = await cli(nowhere, 'category', 'move', '--help');
    assert.equal(move.stdout, 'usage: blog-api category move <handle> <category_id> --parent <category_id|root>\n');
    const migrate = await cli(nowhere, 'migrate', '--help');
    assert.deepEqual([migrate.code, migrate.stdout], [0, 'usage: blog-api migrate\n']);
    // A group lists its own commands.
    const group = await cli(nowhere, 'store', '--help');
    assert.equal(group.code, 0);
    assert.match(group.stdout, /^usage: blog-api store <command>\n {2}store create /);
    assert.ok(!group.stdout.includes('key issue'), group.stdout);
    // The whole listing on request.
    const all = await cli(nowhere, '--help');
    assert.equal(all.code, 0);
    assert.ok(all.stdout.includes('  key issue') && all.stdout.includes('  category delete'));
  });

  it('prints the usage of the command meant after a usage error, not the whole listing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogapi-cli-'));
    const db = `sqlite:${join(dir, 'blog.db')}`;
    try {
      const missing = await cli(db, 'key', 'issue', '--store', 'acme', '--scopes', 'read_blog');
      assert.equal(missing.code, 2);
      assert.equal(missing.stdout, '');
      assert.equal(
        missing.stderr,
        'blog-api: --app is required\n' +
          'usage: blog-api key issue --store <h> --app <name> --scopes a,b,c [--expires-in-days N | --no-expiry]\n' +
          '                          [--read-per-minute N] [--write-per-minute N] [--concurrency N]\n',
      );
      const unknownSub = await cli(db, 'category', 'paint');
      assert.equal(unknownSub.code, 2);
      assert.match(
        unknownSub.stderr,
        /^blog-api: category commands: rename, move, delete\nusage: blog-api category <command>\n/,
      );
      assert.ok(!unknownSub.stderr.includes('store create'), unknownSub.stderr);
      const unknownOption = await cli(db, 'key', 'revoke', 'abcdefgh', '--force');
      assert.equal(unknownOption.code, 2);
      assert.match(unknownOption.stderr, /\nusage: blog-api key revoke <key_id>\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an unreachable database', () => {
  it('names the host, the port and DATABASE_URL, without the password', async () => {
    const port = await unusedPort();
    for (const host of ['127.0.0.1', 'localhost']) {
      const res = await cli(`postgres://blog:s3cret-pw@${host}:${port}/blog`, 'store', 'show', 'acme');
      assert.equal(res.code, 1);
      assert.equal(res.stdout, '');
      assert.equal(
        res.stderr,
        `blog-api: cannot reach the PostgreSQL server at ${host}:${port} (ECONNREFUSED: connection refused: is the server running and listening there?); check DATABASE_URL\n`,
      );
    }
    const unknownHost = await cli('postgres://blog@no-such-host.invalid:6543/blog', 'key', 'list', '--store', 'acme');
    assert.equal(unknownHost.code, 1);
    assert.match(
      unknownHost.stderr,
      /^blog-api: cannot reach the PostgreSQL server at no-such-host\.invalid:6543 \((ENOTFOUND|EAI_AGAIN): .*\); check DATABASE_URL\n$/,
    );
  });
});
