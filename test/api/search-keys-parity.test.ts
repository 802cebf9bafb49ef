// A post's store-keyed search keys are computed in TypeScript for both engines: SQLite's
// FTS5 tokens (storeSearchTokens) and PostgreSQL's keys (storeSearchKeys), the same trigrams.
// PostgreSQL also computes them in SQL (post_search_keys, migrations 0013 and 0017) for rows
// written without keys (migration 0020: the previous release's writes). A search must find the
// same posts on both engines and from rows of both releases, so for any text the three give the
// same set of trigrams: long runs without white space, CJK, characters outside the BMP,
// combining marks, punctuation, and white space other than the space that separates words.
// Migration 0017 replaced the function without rewriting stored keys, and 0020 made the column
// plain without rewriting it: rows written before each must hold exactly the keys now computed.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import pg from 'pg';
import { sql } from 'kysely';
import { describeOnPostgres } from '../helpers/engines.js';
import { START_TIME } from '../helpers/test-app.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest, releaseMigrations } from '../../src/db/migrate.js';
import { ManualClock } from '../../src/lib/clock.js';
import { searchText, storeSearchKeys, storeSearchTokens } from '../../src/lib/search-text.js';
import { StoreService } from '../../src/modules/stores/index.js';

/** PostgreSQL's key `<store>:<trigram>` spelled as SQLite's token `s<store>t<three code points in hex>`. */
function asToken(key: string): string {
  const colon = key.indexOf(':');
  const hex = [...key.slice(colon + 1)].map((c) => c.codePointAt(0)!.toString(16).padStart(6, '0')).join('');
  return `s${key.slice(0, colon)}t${hex}`;
}

/** Characters of several kinds; never NUL or a lone surrogate, which the API refuses in every text. */
const character = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...'abcxyzABCÉéß0123') },
  { weight: 3, arbitrary: fc.constantFrom(' ', ' ', '\t', '\n', '\u00a0', '\u3000', '\u200b', '\ufeff') },
  { weight: 2, arbitrary: fc.constantFrom(...'的一是不了人我在有他這為之大來以個中上們蛋糕茶葉') },
  { weight: 2, arbitrary: fc.constantFrom(...'.,;:!?-_\'"()[]{}<>&#%/\\|*+=~`^$@') },
  { weight: 1, arbitrary: fc.constantFrom('😀', '𠀋', '👍🏽', 'e\u0301', 'ΣΑΣ', 'ｶﾀｶﾅ', 'אב', 'ع') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\0') },
);

/** A long run without white space: one piece repeated, or characters of a small alphabet. */
const longRun = fc.oneof(
  fc
    .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }), fc.integer({ min: 100, max: 4000 }))
    .map(([piece, times]) => piece.replace(/\s|\0/gu, 'x').repeat(times)),
  fc.array(fc.constantFrom(...'ab字😀'), { minLength: 500, maxLength: 6000 }).map((cs) => cs.join('')),
);

const text = fc
  .array(fc.oneof({ weight: 8, arbitrary: character }, { weight: 1, arbitrary: longRun }), { maxLength: 80 })
  .map((parts) => parts.join(''));

describeOnPostgres('search keys: PostgreSQL and the TypeScript tokens agree', (postgres) => {
  let client: pg.Client;
  let drop: () => Promise<void>;
  before(async () => {
    const created = await postgres.create();
    drop = created.drop;
    client = new pg.Client({ connectionString: created.database.url });
    await client.connect();
  });
  after(async () => {
    await client?.end();
    await drop?.();
  });

  /** The SQL function's keys, spelled as tokens, after checking them against storeSearchKeys. */
  const keysOf = async (storeId: number, searchable: string): Promise<string[]> => {
    const { rows } = await client.query<{ keys: string[] }>('SELECT post_search_keys($1::bigint, $2) AS keys', [
      storeId,
      searchable,
    ]);
    assert.deepEqual(
      [...storeSearchKeys(storeId, searchable)].sort(),
      [...rows[0].keys].sort(),
      JSON.stringify(searchable),
    );
    return rows[0].keys.map(asToken).sort();
  };
  const tokensOf = (storeId: number, searchable: string): string[] =>
    storeSearchTokens(storeId, searchable).split(' ').filter(Boolean).sort();

  it('gives the same keys for ordinary and edge-case texts', async () => {
    for (const sample of [
      '',
      'ab',
      'abc',
      'abc abc',
      'the quick brown fox',
      '茶葉蛋 巧克力蛋糕',
      'a\nb\tc',
      '😀😀😀 𠀋x',
    ]) {
      assert.deepEqual(await keysOf(7, sample), tokensOf(7, sample), JSON.stringify(sample));
    }
  });

  it('gives the same keys for generated texts, as given and as a post search text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 40 }), text, async (storeId, raw) => {
        assert.deepEqual(await keysOf(storeId, raw), tokensOf(storeId, raw));
        const searchable = searchText(raw, null, `<p>${raw.replace(/[<&]/g, ' ')}</p>`);
        assert.deepEqual(await keysOf(storeId, searchable), tokensOf(storeId, searchable));
      }),
      { numRuns: 300 },
    );
  });

  /**
   * Runs `work` on a new database migrated up to `migration` (not included), with a store and a
   * way to add a bare post to it (the search row is the test's to write).
   */
  const beforeMigration = async (
    migration: string,
    work: (handle: DatabaseHandle, storeId: number, newPost: () => Promise<number>) => Promise<void>,
  ): Promise<void> => {
    const created = await postgres.create({ empty: true });
    const handle = openDatabase(created.database);
    try {
      await migrateToLatest(
        handle,
        releaseMigrations('postgres').filter((m) => m.name < migration),
      );
      const store = await new StoreService(handle.db, new ManualClock(START_TIME)).create({
        handle: `before-${migration}`,
        name: `Before ${migration}`,
      });
      const newPost = async () =>
        (
          await handle.db
            .insertInto('posts')
            .values({
              store_id: store.id,
              title: 't',
              summary: null,
              body_html: '<p>b</p>',
              warnings: '[]',
              cover_image_id: null,
              default_category_id: null,
              published_at: null,
              view_count: 0,
              created_at: Date.parse(START_TIME),
              updated_at: Date.parse(START_TIME),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      await work(handle, store.id, newPost);
    } finally {
      await handle.close();
      await created.drop();
    }
  };

  it('finds the keys stored before migration 0017 equal to those it computes (nothing to rewrite)', async () => {
    await beforeMigration('0017', async (handle, storeId, newPost) => {
      const texts = ['pan cakes 茶葉蛋', 'x'.repeat(3000), '😀😀😀😀 ab 𠀋𠀋𠀋', `${'ab字'.repeat(500)} tail`];
      for (const text of texts) {
        await handle.db
          .insertInto('post_search')
          .values({ post_id: await newPost(), store_id: storeId, text })
          .execute();
      }
      assert.equal((await migrateToLatest(handle)).applied[0], '0017-linear-search-keys');
      const { rows } = await sql<{ rows: number; same: number }>`
        SELECT count(*)::int AS rows,
               count(*) FILTER (WHERE keys @> post_search_keys(store_id, text) AND keys <@ post_search_keys(store_id, text))::int AS same
        FROM post_search`.execute(handle.db);
      assert.deepEqual(rows, [{ rows: texts.length, same: texts.length }]);
    });
  });

  it('keeps the keys of rows written before migration 0020, and computes them for writes that give none', async () => {
    await beforeMigration('0020', async (handle, storeId, newPost) => {
      const keysOfRow = async (postId: number) =>
        (
          await sql<{ keys: string[] | null }>`SELECT keys FROM post_search WHERE post_id = ${postId}`.execute(
            handle.db,
          )
        ).rows[0]!.keys;
      const expected = (text: string) => [...storeSearchKeys(storeId, text)].sort();

      // Written as the previous release writes: no keys (the column was generated).
      const before = await newPost();
      await sql`INSERT INTO post_search (post_id, store_id, text) VALUES (${before}, ${storeId}, ${'pan cakes 茶葉蛋'})`.execute(
        handle.db,
      );
      assert.equal((await migrateToLatest(handle)).applied.at(-1), '0020-search-keys-from-writer');
      assert.deepEqual([...(await keysOfRow(before))!].sort(), expected('pan cakes 茶葉蛋'));

      // After it, a write that gives no keys gets those of its text, on insert and on an edit of the text.
      const after = await newPost();
      await sql`INSERT INTO post_search (post_id, store_id, text) VALUES (${after}, ${storeId}, ${'greengage jam'})`.execute(
        handle.db,
      );
      assert.deepEqual([...(await keysOfRow(after))!].sort(), expected('greengage jam'));
      await sql`UPDATE post_search SET text = ${'😀😀😀😀 𠀋𠀋𠀋 plum'} WHERE post_id = ${after}`.execute(handle.db);
      assert.deepEqual([...(await keysOfRow(after))!].sort(), expected('😀😀😀😀 𠀋𠀋𠀋 plum'));

      // A row whose store is filled in later (post_search_fill_store) gets its keys then.
      const storeless = await newPost();
      await sql`INSERT INTO post_search (post_id, text) VALUES (${storeless}, ${'oolong tea'})`.execute(handle.db);
      assert.deepEqual([...(await keysOfRow(storeless))!].sort(), expected('oolong tea'));

      // Keys given by the writer are stored as given (the API's writes: no second computation).
      const given = await newPost();
      await sql`INSERT INTO post_search (post_id, store_id, text, keys) VALUES (${given}, ${storeId}, ${'matcha'}, ${['given:key']}::text[])`.execute(
        handle.db,
      );
      assert.deepEqual(await keysOfRow(given), ['given:key']);
      await sql`UPDATE post_search SET text = ${'sencha'}, keys = ${['other:key']}::text[] WHERE post_id = ${given}`.execute(
        handle.db,
      );
      assert.deepEqual(await keysOfRow(given), ['other:key']);
    });
  });
});
