// The database under test: a temporary SQLite file or PostgreSQL database, migrated and seeded
// directly through the services and batched SQL (not through HTTP), before the server starts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig, type DatabaseConfig } from '../../src/config/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import { SCOPES } from '../../src/modules/keys/index.js';
import type { EngineName } from './options.js';

export interface BenchDatabase {
  engine: EngineName;
  database: DatabaseConfig;
  /** A folder for media files and scratch data, removed by drop(). */
  workDir: string;
  /** Runs a statement on this database as the admin (PostgreSQL only). */
  adminQuery?: (sql: string) => Promise<void>;
  /** PostgreSQL database name, for ALTER DATABASE. */
  name?: string;
  drop(): Promise<void>;
}

export async function createBenchDatabase(engine: EngineName, postgresUrl: string): Promise<BenchDatabase> {
  const workDir = mkdtempSync(join(tmpdir(), 'blogbench-'));
  if (engine === 'sqlite') {
    const file = join(workDir, 'blog.db');
    return {
      engine,
      workDir,
      database: { engine: 'sqlite', url: `sqlite:${file}`, file },
      drop: async () => rmSync(workDir, { recursive: true, force: true }),
    };
  }
  const name = `blogbench_${randomLowerAlnum(10)}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    engine,
    workDir,
    name,
    database: { engine: 'postgres', url: url.toString() },
    adminQuery: admin,
    async drop() {
      try {
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        rmSync(workDir, { recursive: true, force: true });
      }
    },
  };
}

const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna ' +
  'aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute ' +
  'irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident'
).split(' ');

/**
 * Article-like HTML of about `bytes` bytes that the allow-list filter keeps unchanged: headings,
 * paragraphs with inline markup, links and a list. `salt` varies the words between posts.
 */
export function articleHtml(bytes: number, salt: number): string {
  const parts: string[] = [];
  let size = 0;
  let i = salt;
  const word = () => WORDS[(i = (i * 1103515245 + 12345) % 2147483648) % WORDS.length];
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  for (let block = 0; size < bytes; block++) {
    let html: string;
    if (block % 6 === 0) html = `<h2>${sentence(5)}</h2>`;
    else if (block % 6 === 3) html = `<ul><li>${sentence(6)}</li><li>${sentence(7)}</li><li>${sentence(5)}</li></ul>`;
    else
      html = `<p>${sentence(14)} <strong>${sentence(3)}</strong> ${sentence(12)} <a href="https://example.com/p/${block}">${sentence(2)}</a> ${sentence(10)}.</p>`;
    parts.push(html);
    size += html.length;
  }
  return parts.join('\n');
}

export interface SeedResult {
  storeHandle: string;
  key: string;
  postIds: number[];
}

/** Gives a store allowances far above what a run can use, so every request measures the work, not a refusal. */
export async function benchAllowances(ctx: AppContext, handle: string) {
  return (await ctx.stores.update(handle, {
    posts_per_day: 100_000_000,
    images_per_day: 10_000_000,
    image_max_bytes: 60 * 1024 * 1024,
  }))!;
}

/** A key of the store with every scope, its limits as far above a run as the store's allowances. */
export async function issueBenchKey(ctx: AppContext, storeId: number): Promise<string> {
  const issued = await ctx.keys.issue({
    storeId,
    application: 'bench',
    scopes: [...SCOPES],
    readPerMinute: 10_000_000,
    writePerMinute: 10_000_000,
    concurrency: 1000,
  });
  return issued.key;
}

export async function seedDatabase(db: BenchDatabase, options: { posts: number; bodyKb: number }): Promise<SeedResult> {
  const config = {
    ...loadConfig({ DATABASE_URL: db.database.url, LOG_LEVEL: 'warn', MEDIA_DIR: join(db.workDir, 'media') }),
    database: db.database,
  };
  const ctx = await createContext(config);
  try {
    const handle = 'bench';
    await ctx.stores.create({ handle, name: 'Bench Store' });
    const store = await benchAllowances(ctx, handle);
    const key = await issueBenchKey(ctx, store.id);

    const now = Date.now();
    const categoryIds: number[] = [];
    for (let c = 0; c < 5; c++) {
      const row = await ctx.db
        .insertInto('categories')
        .values({
          store_id: store.id,
          name: `Category ${c + 1}`,
          parent_id: null,
          parent_key: 0,
          depth: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      categoryIds.push(row.id);
    }

    const postIds: number[] = [];
    const bodyBytes = Math.round(options.bodyKb * 1024);
    const bodies = Array.from({ length: 16 }, (_, i) => articleHtml(bodyBytes, i + 1));
    const start = now - options.posts * 60_000;
    const CHUNK = 500;
    await ctx.db.transaction().execute(async (trx) => {
      for (let from = 0; from < options.posts; from += CHUNK) {
        const rows = [];
        for (let n = from; n < Math.min(options.posts, from + CHUNK); n++) {
          const createdAt = start + n * 60_000;
          rows.push({
            store_id: store.id,
            title: `Bench post ${n + 1}: ${WORDS[n % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]}`,
            summary: `Summary of bench post ${n + 1}`,
            body_html: bodies[n % bodies.length],
            warnings: '[]',
            cover_image_id: null,
            default_category_id: categoryIds[n % categoryIds.length],
            // Every other post published, the rest drafts.
            published_at: n % 2 === 0 ? createdAt + 1000 : null,
            view_count: n % 97,
            created_at: createdAt,
            updated_at: createdAt,
          });
        }
        const inserted = await trx.insertInto('posts').values(rows).returning('id').execute();
        const ids = inserted.map((r) => r.id);
        postIds.push(...ids);
        await trx
          .insertInto('post_categories')
          .values(
            ids.map((id, k) => ({
              post_id: id,
              category_id: categoryIds[(from + k) % categoryIds.length],
              store_id: store.id,
            })),
          )
          .execute();
      }
    });
    return { storeHandle: handle, key, postIds };
  } finally {
    await ctx.close();
  }
}
