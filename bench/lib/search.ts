// Search rows of the benchmark: a second store with many short posts (English and Traditional
// Chinese), bulk-loaded with their search text in batched SQL, and the queries run against it.
import { sql, type Insertable } from 'kysely';
import { loadConfig } from '../../src/config/config.js';
import type { PostsTable } from '../../src/db/schema.js';
import { createContext } from '../../src/context.js';
import { SCOPES } from '../../src/modules/keys/index.js';
import { searchText } from '../../src/modules/posts/post-search.js';
import { storeSearchTokens } from '../../src/lib/search-text.js';
import type { LoadSpec } from './scenarios.js';
import type { BenchDatabase } from './seed.js';

const ENGLISH = (
  'recipe chocolate butter flour sugar oven coffee travel guide summer winter garden market weekend morning ' +
  'review camera phone battery design studio method simple quick healthy classic modern family holiday story'
).split(' ');
const CHINESE = (
  '蛋糕 巧克力 咖啡 旅行 台北 台中 花蓮 夏天 冬天 早餐 午餐 晚餐 甜點 食譜 烘焙 麵包 奶油 草莓 抹茶 紅茶 ' +
  '相機 手機 設計 工作室 週末 市場 花園 家庭 假期 故事 簡單 健康 經典 現代 教學 心得 推薦 開箱 新品 優惠'
).split(' ');

/**
 * The rows: each query, and why it is there. How many posts hold each term was counted over the
 * generated texts (the generator's arithmetic loses precision, so its words are far from evenly
 * drawn): chocolate 4.3 %, butter and summer together 4.0 %, 巧克力蛋糕 0.3 %, 蛋糕 99 %.
 */
export const SEARCH_QUERIES = [
  { name: 'search-en-common', q: 'chocolate', what: 'English word in ~1 post of 23' },
  { name: 'search-en-rare', q: 'sku-0421', what: 'English code in 1 post of 1,000' },
  { name: 'search-en-two', q: 'butter summer', what: 'two English words, together in ~1 post of 25' },
  { name: 'search-zh-long', q: '巧克力蛋糕', what: 'Chinese, 5 characters, in ~3 posts of 1,000' },
  { name: 'search-zh-two', q: '蛋糕', what: 'Chinese, 2 characters, in nearly every post' },
  { name: 'search-none', q: 'zzzqqq', what: 'no match' },
] as const;

/** A deterministic pseudo-random sequence (a run is the same every time). */
function sequence(seed: number) {
  let x = seed;
  return (n: number) => (x = (x * 1103515245 + 12345) % 2147483648) % n;
}

/** A short post of about 600 characters: English and Chinese phrases and a product code. */
function postText(n: number) {
  const next = sequence(n + 1);
  const english = Array.from({ length: 40 }, () => ENGLISH[next(ENGLISH.length)]).join(' ');
  const chinese = Array.from({ length: 20 }, () => CHINESE[next(CHINESE.length)]).join('');
  const title = `${ENGLISH[next(ENGLISH.length)]} ${CHINESE[next(CHINESE.length)]} ${n}`;
  return { title, body: `<p>${english}</p>\n<p>${chinese}</p>\n<p>sku-${String(n % 1000).padStart(4, '0')}</p>` };
}

/** Creates the search store with `count` posts (direct SQL, batched) and returns its key. */
export async function seedSearchStore(db: BenchDatabase, count: number): Promise<{ key: string }> {
  const config = { ...loadConfig({ DATABASE_URL: db.database.url, LOG_LEVEL: 'warn' }), database: db.database };
  const ctx = await createContext(config);
  try {
    const store = await ctx.stores.create({ handle: 'bench-search', name: 'Bench Search Store' });
    const issued = await ctx.keys.issue({
      storeId: store.id,
      application: 'bench-search',
      scopes: [...SCOPES],
      readPerMinute: 10_000_000,
      writePerMinute: 10_000_000,
      concurrency: 1000,
    });
    const idColumn = ctx.engine === 'postgres' ? 'post_id' : 'rowid';
    const start = Date.now() - count * 60_000;
    const CHUNK = 1000;
    for (let from = 0; from < count; from += CHUNK) {
      await ctx.db.transaction().execute(async (trx) => {
        const rows: Array<Insertable<PostsTable>> = [];
        for (let n = from; n < Math.min(count, from + CHUNK); n++) {
          const { title, body } = postText(n);
          const at = start + n * 60_000;
          rows.push({
            store_id: store.id,
            title,
            summary: null,
            body_html: body,
            warnings: '[]',
            cover_image_id: null,
            default_category_id: null,
            published_at: n % 2 ? at : null,
            view_count: 0,
            created_at: at,
            updated_at: at,
          });
        }
        const ids = (await trx.insertInto('posts').values(rows).returning('id').execute()).map((r) => r.id);
        await trx
          .insertInto('post_search')
          .values(
            ids.map((id, k) => ({
              [idColumn]: id,
              ...(ctx.engine === 'postgres' ? { store_id: store.id } : {}),
              text: searchText(rows[k].title, null, rows[k].body_html),
            })),
          )
          .execute();
        // SQLite looks terms up in the store-keyed index (migration 0011-store-isolation).
        if (ctx.engine === 'sqlite') {
          await trx
            .insertInto('post_search_store')
            .values(
              ids.map((id, k) => ({
                rowid: id,
                tokens: storeSearchTokens(store.id, searchText(rows[k].title, null, rows[k].body_html)),
              })),
            )
            .execute();
        }
      });
    }
    // Statistics, as a database in service has them (autovacuum would gather them a little later).
    if (ctx.engine === 'postgres') await sql`ANALYZE`.execute(ctx.db);
    return { key: issued.key };
  } finally {
    await ctx.close();
  }
}

/** One search page (20, newest first), the same query every time (the server's read cache is off). */
export function searchPosts(key: string, q: string): LoadSpec {
  return {
    headers: { authorization: `Bearer ${key}` },
    requests: [{ method: 'GET', path: `/v1/blog/posts?limit=20&q=${encodeURIComponent(q)}` }],
  };
}
