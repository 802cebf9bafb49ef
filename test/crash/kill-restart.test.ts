// Crash test: a real server process under concurrent creates (with idempotency keys) and image
// uploads is killed with SIGKILL mid-load, twice, and restarted. Afterwards: the database is
// intact, every acknowledged (2xx) post is there and equal, replaying an acknowledged
// idempotency key answers what it answered the first time, and the media folder matches the
// image rows. A last case runs the operator's housekeeping and expects no orphan file.
//
// Bounded by counts, not by time: the kill comes after a number of acknowledged writes.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/database.js';
import { describeEachEngine } from '../helpers/engines.js';
import { uniqueJpeg } from '../api/media-support.js';
import { startServerProcess as startServer, type ServerProcess } from '../helpers/server-process.js';
import { runCli } from '../helpers/cli.js';

const WORKERS = 8;
const ROUNDS = 2;
/** Acknowledged writes per round before the kill: enough that requests are in flight at it. */
const KILL_AFTER_ACKS = 40;
const PUBLIC_BASE_URL = 'http://blog.test';

interface AckedPost {
  idempotencyKey: string;
  body: Record<string, unknown>;
  status: number;
  answer: Record<string, unknown>;
}
interface AckedImage {
  status: number;
  answer: { id: string; basename: string; path: string; bytes: number };
}

describeEachEngine('kill -9 under load, then restart', (target) => {
  let dir: string;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let server: ServerProcess | undefined;
  let key: string;
  let handle: string;
  const posts: AckedPost[] = [];
  const images: AckedImage[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'blogapi-crash-'));
    const created = await target.create();
    drop = created.drop;
    env = { DATABASE_URL: created.database.url, MEDIA_DIR: join(dir, 'media'), PUBLIC_BASE_URL };
    if (created.database.engine === 'sqlite') env.DATABASE_URL = `sqlite:${created.database.file}`;

    // The tenant and its key, written by the services themselves before the server starts.
    const ctx = await createContext(loadConfig(env));
    const store = await ctx.stores.create({ handle: 'crash-store', name: 'Crash', media: true, categories: true });
    await ctx.stores.update(store.handle, { posts_per_day: 1_000_000, images_per_day: 1_000_000 });
    key = (
      await ctx.keys.issue({
        storeId: store.id,
        application: 'crash-test',
        scopes: ['read_blog', 'write_blog', 'write_media'],
        readPerMinute: 1_000_000,
        writePerMinute: 1_000_000,
        concurrency: 64,
      })
    ).key;
    handle = store.handle;
    await ctx.close();

    for (let round = 0; round < ROUNDS; round++) {
      server = await startServer(env);
      await loadUntilKilled(server, round);
      server = undefined;
    }
    server = await startServer(env);
  });

  after(async () => {
    await server?.kill();
    await drop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** WORKERS loops of creates and uploads; SIGKILL once KILL_AFTER_ACKS writes were answered 2xx. */
  async function loadUntilKilled(s: ServerProcess, round: number): Promise<void> {
    let acks = 0;
    let killing: Promise<void> | undefined;
    const onAck = () => {
      if (++acks === KILL_AFTER_ACKS) killing = s.kill().then(() => undefined);
    };
    const worker = async (w: number) => {
      for (let i = 0; ; i++) {
        try {
          if (i % 3 === 2) {
            const form = new FormData();
            form.append('file', new Blob([new Uint8Array(await uniqueJpeg())], { type: 'image/jpeg' }), 'crash.jpg');
            const res = await fetch(`${s.baseUrl}/v1/media/images`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}` },
              body: form,
            });
            const answer = await res.json();
            if (res.ok) {
              images.push({ status: res.status, answer });
              onAck();
            }
          } else {
            const idempotencyKey = `crash-${round}-${w}-${i}`;
            const body = {
              title: `Crash ${round}.${w}.${i}`,
              body_html: `<p>Round ${round}, worker ${w}, write ${i}. 中文</p>`,
              summary: `s${i}`,
            };
            const res = await fetch(`${s.baseUrl}/v1/blog/posts`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${key}`,
                'content-type': 'application/json',
                'idempotency-key': idempotencyKey,
              },
              body: JSON.stringify(body),
            });
            const answer = await res.json();
            if (res.ok) {
              posts.push({ idempotencyKey, body, status: res.status, answer });
              onAck();
            }
          }
        } catch {
          // The connection died with the process: this write was never acknowledged.
          if (killing) return;
          throw new Error('a request failed before the kill');
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    await killing;
    assert.ok(acks >= KILL_AFTER_ACKS, `round ${round}: ${acks} writes acknowledged before the kill`);
  }

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server!.baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) },
    });

  // PRAGMA integrity_check is SQLite's; PostgreSQL's own crash recovery is what the other checks rely on there.
  if (target.name === 'sqlite')
    it('the database is intact', () => {
      const db = new BetterSqlite3(env.DATABASE_URL.slice('sqlite:'.length), { readonly: true });
      try {
        assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
        assert.deepEqual(db.pragma('foreign_key_check'), []);
      } finally {
        db.close();
      }
    });

  it('every acknowledged post is present and equal to its answer', async () => {
    assert.ok(posts.length >= ROUNDS * 10, `${posts.length} posts acknowledged`);
    for (const p of posts) {
      const res = await call(`/v1/blog/posts/${String(p.answer.id)}`);
      assert.equal(res.status, 200, `post ${String(p.answer.id)}`);
      const { warnings: _w, ...stored } = await res.json();
      const { warnings: _w2, ...written } = p.answer;
      assert.deepEqual(stored, written);
    }
  });

  it('replaying an acknowledged idempotency key answers as the first time, and adds nothing', async () => {
    const before = await countPosts();
    for (const p of posts) {
      const res = await call('/v1/blog/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': p.idempotencyKey },
        body: JSON.stringify(p.body),
      });
      assert.equal(res.status, p.status, `replay of ${p.idempotencyKey}`);
      assert.deepEqual(await res.json(), p.answer, `replay of ${p.idempotencyKey}`);
    }
    assert.equal(await countPosts(), before);
  });

  it('every live image row has its file, and every acknowledged upload is served', async () => {
    assert.ok(images.length >= ROUNDS * 3, `${images.length} uploads acknowledged`);
    for (const row of await liveImageRows()) {
      const file = join(env.MEDIA_DIR, handle, row.basename);
      assert.equal(statSync(file, { throwIfNoEntry: false })?.size, row.bytes, `file of image ${row.id}`);
    }
    for (const image of images) {
      const res = await fetch(`${server!.baseUrl}${image.answer.path}`);
      assert.equal(res.status, 200, image.answer.path);
      assert.equal((await res.arrayBuffer()).byteLength, image.answer.bytes);
    }
  });

  // Housekeeping removes upload temp files and media objects without a row once they are an
  // hour old; the files are aged by setting their times, not by waiting.
  it('after housekeeping no orphan or temporary file is left, and every live image keeps its file', async () => {
    // Housekeeping runs with the server down, as after a crash (and a kill is one more).
    await server!.kill();
    server = undefined;
    const hourAndMinuteAgo = new Date(Date.now() - 61 * 60 * 1000);
    for (const file of filesUnder(env.MEDIA_DIR)) utimesSync(file, hourAndMinuteAgo, hourAndMinuteAgo);

    const cli = await runCli(env, 'housekeeping');
    assert.equal(cli.code, 0, `blog-api housekeeping: ${cli.stdout}${cli.stderr}`);

    const rows = await liveImageRows();
    const expected = rows.map((r) => join(env.MEDIA_DIR, handle, r.basename)).sort();
    assert.deepEqual(filesUnder(env.MEDIA_DIR).sort(), expected);
  });

  async function countPosts(): Promise<number> {
    let count = 0;
    let cursor: string | null = null;
    do {
      const res = await call(`/v1/blog/posts?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.status, 200);
      const page = await res.json();
      count += page.data.length;
      cursor = page.meta.next_cursor;
    } while (cursor);
    return count;
  }

  async function liveImageRows() {
    const config = loadConfig(env);
    const db = openDatabase(config.database, { poolSize: 1 });
    try {
      return await db.db
        .selectFrom('images')
        .select(['id', 'basename', 'bytes'])
        .where('deleted_at', 'is', null)
        .execute();
    } finally {
      await db.close();
    }
  }
});

function filesUnder(root: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const full = join(root, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}
