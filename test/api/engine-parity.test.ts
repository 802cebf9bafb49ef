// The two engines write the same rows. One sequence of writes through the HTTP API (creates, a
// duplicate inside the window and one after it, two creates of the same content at once, the
// daily quota's edge, an idempotent replay, an update, a publish, a schedule, an unpublish, a
// delete, category and image writes, test events, replays past the store's queue bound) runs on
// SQLite and on PostgreSQL with the same injected clock, beside webhook endpoints subscribed to
// every event, to some types and to none of them (and one disabled). Then every row the writes
// left is read from both databases and compared: posts, their search text and store-keyed
// search keys, category links, fingerprints, audit events, the daily usage, the events (feed and
// webhook outbox), the deliveries (of replays and test events too, and those held past the
// store's queue bound), the idempotency records and the publish schedule, and the events feed as
// the API answers it. Generated ids are replaced by their order of appearance with their shape
// kept (prefix, alphabet, length), so a format that differs between the engines shows.
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import assert from 'node:assert/strict';
import { postgresEngine, sqliteEngine, type EngineTarget } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { solidImage } from '../helpers/image-fixtures.js';
import { deleteImage, upload } from './media-support.js';
import { STORE_QUEUE_LIMIT } from '../../src/modules/events/index.js';
import { storeSearchTokens } from '../../src/lib/search-text.js';

const MINUTE = 60_000;
const ARTICLE =
  '<h2>Autumn menu</h2><p>Pumpkin <strong>soup</strong> and <a href="https://example.com/menu">chestnut</a> bread.</p>';

interface Ids {
  key: string;
  storeId: number;
  posts: number[];
  categories: number[];
  /** The idempotency key of the create that won the duplicate race. */
  raceWinner?: string;
}

/** The writes, the same on each engine; returns the ids the API answered with, in order. */
async function writeEverything(t: TestApp): Promise<Ids> {
  const store = await t.createStore({ categories: true, media: true, changes: { posts_per_day: 5 } });
  const key = await t.issueKey(store);
  const ids: Ids = { key, storeId: store.id, posts: [], categories: [] };
  const req = t.request.bind(t);
  const ok = async (res: Promise<{ statusCode: number; body: string; json(): any }>, status: number) => {
    const r = await res;
    assert.equal(r.statusCode, status, r.body);
    return r.statusCode === 204 ? null : r.json();
  };
  const tick = () => t.clock.advance(1000);

  const endpoint = (url: string, events: string[]) =>
    ok(req({ method: 'POST', url: '/v1/webhooks', key, body: { url, events } }), 201);
  const all = await endpoint('https://127.0.0.1/all', ['*']);
  const posts = await endpoint('https://127.0.0.1/posts', ['post.created', 'post.published', 'post.deleted']);
  await endpoint('https://127.0.0.1/categories', ['category.created', 'image.uploaded']);
  const off = await endpoint('https://127.0.0.1/off', ['*']);
  await ok(req({ method: 'PATCH', url: `/v1/webhooks/${off.id}`, key, body: { enabled: false } }), 200);
  tick();

  const news = await ok(
    req({
      method: 'POST',
      url: '/v1/blog/categories',
      key,
      headers: { 'idempotency-key': 'cat-1' },
      body: { name: 'News' },
    }),
    201,
  );
  ids.categories.push(news.id);
  const recipes = await ok(
    req({
      method: 'POST',
      url: '/v1/blog/categories',
      key,
      headers: { 'idempotency-key': 'cat-2' },
      body: { name: 'Recipes', parent_id: news.id },
    }),
    201,
  );
  ids.categories.push(recipes.id);
  tick();

  const create = (idem: string, body: object) =>
    req({ method: 'POST', url: '/v1/blog/posts', key, headers: { 'idempotency-key': idem }, body });
  const first = {
    title: 'Autumn menu',
    summary: 'What we cook',
    body_html: ARTICLE,
    category_ids: [news.id],
    default_category_id: news.id,
  };
  const a = await ok(create('post-a', first), 201);
  ids.posts.push(a.id);
  // The same request again: the stored answer, nothing written.
  const replay = await create('post-a', first);
  assert.equal(replay.statusCode, 201, replay.body);
  assert.equal(replay.body, JSON.stringify(a));
  tick();
  // The same content under another key, inside the window: refused.
  assertError(await create('post-a-again', { title: first.title, body_html: ARTICLE }), 'duplicate_content', [
    { field: 'post_id', issue: String(a.id) },
  ]);
  t.clock.advance(11 * MINUTE);
  // After the window: accepted, and the fingerprint now names the new post.
  ids.posts.push((await ok(create('post-b', { title: first.title, body_html: ARTICLE }), 201)).id);
  tick();
  for (const n of [3, 4]) {
    ids.posts.push((await ok(create(`post-${n}`, { title: `Post ${n}`, body_html: `<p>Body ${n}</p>` }), 201)).id);
    tick();
  }
  // The same content sent twice at once: one create wins, the other is refused naming it (the
  // engines settle the race in different places; the rule and the rows are the same).
  const race = { title: 'Post 5', body_html: '<p>Body 5</p>' };
  const raced = await Promise.all([create('race-1', race), create('race-2', race)]);
  assert.deepEqual(raced.map((r) => r.statusCode).sort(), [201, 409], raced.map((r) => r.body).join('\n'));
  const winner = raced.find((r) => r.statusCode === 201)!.json();
  assertError(
    raced.find((r) => r.statusCode === 409)!,
    'duplicate_content',
    [{ field: 'post_id', issue: String(winner.id) }],
  );
  ids.posts.push(winner.id);
  ids.raceWinner = raced[0].statusCode === 201 ? 'race-1' : 'race-2';
  tick();
  // The sixth create of the day is over the quota of 5.
  const refused = await create('post-6', { title: 'Post 6', body_html: '<p>Body 6</p>' });
  assert.equal(refused.statusCode, 429, refused.body);
  assert.equal(refused.json().error.code, 'quota_exceeded');
  tick();

  const [, b, c, d] = ids.posts;
  await ok(
    req({ method: 'PATCH', url: `/v1/blog/posts/${a.id}`, key, body: { title: 'Winter menu', summary: null } }),
    200,
  );
  tick();
  await ok(req({ method: 'POST', url: `/v1/blog/posts/${a.id}/publish`, key }), 200);
  tick();
  await ok(
    req({
      method: 'POST',
      url: `/v1/blog/posts/${b}/publish`,
      key,
      body: { published_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString() },
    }),
    200,
  );
  tick();
  await ok(req({ method: 'POST', url: `/v1/blog/posts/${a.id}/unpublish`, key }), 200);
  tick();
  const confirm = await req({ method: 'DELETE', url: `/v1/blog/posts/${c}`, key });
  const token = confirm.json().error.details[0].issue;
  await ok(req({ method: 'DELETE', url: `/v1/blog/posts/${c}`, key, body: { confirmation_token: token } }), 204);
  tick();
  await ok(
    req({ method: 'PATCH', url: `/v1/blog/posts/${d}`, key, body: { category_ids: [news.id, recipes.id] } }),
    200,
  );
  tick();
  await ok(req({ method: 'PATCH', url: `/v1/blog/categories/${news.id}`, key, body: { name: 'Old news' } }), 200);
  tick();
  const image = await ok(upload(t, key, await solidImage(8, 8).png().toBuffer()), 201);
  tick();
  await ok(deleteImage(t, key, image.id), 204);
  tick();
  await ok(req({ method: 'DELETE', url: `/v1/blog/categories/${recipes.id}`, key }), 204);
  tick();
  // A replay queues its deliveries in one statement (their ids made in SQL).
  const replayed = await ok(
    req({
      method: 'POST',
      url: `/v1/webhooks/${posts.id}/replay`,
      key,
      body: { since: '2026-09-15T00:00:00Z', types: ['post.*'] },
    }),
    202,
  );
  assert.ok(replayed.queued >= 5, JSON.stringify(replayed));
  tick();
  // A test event goes to the endpoint named, whatever it subscribes to.
  const sent = await ok(req({ method: 'POST', url: `/v1/webhooks/${posts.id}/test`, key }), 202);
  assert.deepEqual([sent.status, sent.waiting_reason], ['pending', null]);
  tick();
  // Replays of the whole feed to the endpoint of every event fill the store's queue: the one that
  // crosses the bound is split (its newest events held), the ones after it are held whole.
  for (let queued = 0; queued <= STORE_QUEUE_LIMIT; tick()) {
    const again = await ok(
      req({ method: 'POST', url: `/v1/webhooks/${all.id}/replay`, key, body: { since: '2026-09-15T00:00:00Z' } }),
      202,
    );
    queued += again.queued;
  }
  // Past the bound, a test event and a content event's deliveries are held.
  const held = await ok(req({ method: 'POST', url: `/v1/webhooks/${posts.id}/test`, key }), 202);
  assert.deepEqual([held.status, held.next_attempt_at, held.waiting_reason], ['pending', null, 'store_queue_full']);
  tick();
  await ok(req({ method: 'PATCH', url: `/v1/blog/categories/${news.id}`, key, body: { name: 'Archive' } }), 200);
  return ids;
}

/** PostgreSQL's key `<store>:<trigram>` spelled as SQLite's token `s<store>t<three code points in hex>`. */
function asToken(key: string): string {
  const colon = key.indexOf(':');
  const hex = [...key.slice(colon + 1)].map((c) => c.codePointAt(0)!.toString(16).padStart(6, '0')).join('');
  return `s${key.slice(0, colon)}t${hex}`;
}

/** Every row the writes left, and the feed as the API answers it, with generated ids replaced. */
async function readEverything(t: TestApp, ids: Ids): Promise<Record<string, unknown>> {
  const db = t.ctx.db;
  const { handle } = await db
    .selectFrom('stores')
    .select('handle')
    .where('id', '=', ids.storeId)
    .executeTakeFirstOrThrow();
  const postIndex = new Map(ids.posts.map((id, i) => [Number(id), `post#${i + 1}`]));
  const categoryIndex = new Map(ids.categories.map((id, i) => [Number(id), `category#${i + 1}`]));
  const postRef = (id: unknown) => postIndex.get(Number(id)) ?? `unknown post ${String(id)}`;
  const randomIds = new Map<string, string>();
  // A generated id: its prefix, the alphabet its characters come from, its length, and its order of appearance.
  const shapeOf = (prefix: string, rest: string) => {
    // Request ids are cut from random bytes in base64url: only their length is a format.
    const alphabet =
      prefix === 'req_'
        ? 'base64url'
        : /^[0-9a-f]+$/.test(rest)
          ? 'hex'
          : /^[a-z0-9]+$/.test(rest)
            ? 'lower-alnum'
            : /^[A-Za-z0-9]+$/.test(rest)
              ? 'alnum'
              : 'other';
    const known = randomIds.get(prefix + rest);
    if (known) return known;
    const name = `${prefix}<${alphabet} ${rest.length} #${randomIds.size + 1}>`;
    randomIds.set(prefix + rest, name);
    return name;
  };
  const text = (s: string) =>
    s
      .replaceAll(handle, '<store handle>')
      .replace(/\b[a-z0-9]{24}\.(png|jpg|webp|gif)\b/g, (name) => shapeOf('', name))
      .replace(/\b(msg_|whd_|wha_|wh_|img_|req_)([A-Za-z0-9_-]{6,})/g, (_, prefix: string, rest: string) =>
        shapeOf(prefix, rest),
      );
  const value = (v: unknown, key = ''): unknown => {
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'string') {
      if ((v.startsWith('{') || v.startsWith('[')) && key !== 'text') {
        try {
          return value(JSON.parse(v), key);
        } catch {
          return text(v);
        }
      }
      return text(v).replace(/\/blog\/posts\/(\d+)/g, (_, id: string) => `/blog/posts/${postRef(id)}`);
    }
    if (Array.isArray(v)) return v.map((item) => value(item, key));
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const isPost = 'title' in o && 'body_html' in o;
      if (o.type === 'post.deleted' && o.data && typeof o.data === 'object') {
        const { data, ...rest } = o;
        return { ...(value(rest) as object), data: { id: postRef((data as { id: number }).id) } };
      }
      return Object.fromEntries(
        Object.entries(o).map(([k, item]) => {
          if ((isPost && k === 'id') || k === 'post_id') return [k, postRef(item)];
          if (k === 'category_ids' && Array.isArray(item))
            return [k, item.map((c) => categoryIndex.get(Number(c)) ?? c)];
          if (k === 'default_category_id' || k === 'category_id')
            return [k, item === null ? null : (categoryIndex.get(Number(item)) ?? item)];
          return [k, value(item, k)];
        }),
      );
    }
    return v;
  };
  const keyIds = new Map<string, string>();
  const rows = (list: object[]) => list.map((row) => value(row));

  // In an order both engines share (never by a generated id).
  const sortBy = <T>(list: T[], by: (row: T) => string | number) =>
    [...list].sort((x, y) => (by(x) < by(y) ? -1 : by(x) > by(y) ? 1 : 0));
  const postOrder = (id: unknown) => ids.posts.indexOf(Number(id));

  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'events', 'enabled'])
    .orderBy('created_at')
    .orderBy('url')
    .execute();
  const endpointOrder = (id: string) => endpoints.findIndex((e) => e.id === id);
  // Test events have no sequence: after the feed's, in time order (the engines sort nulls apart).
  const events = await db
    .selectFrom('webhook_events')
    .select(['id', 'type', 'body', 'created_at', 'sequence'])
    .orderBy(sql`sequence IS NULL`)
    .orderBy('sequence')
    .orderBy('created_at')
    .execute();
  const eventOrder = (id: string) => events.findIndex((e) => e.id === id);
  const result: Record<string, unknown> = {};
  result.endpoints = rows(endpoints);
  result.events = rows(events);
  result.posts = rows(sortBy(await db.selectFrom('posts').selectAll().execute(), (p) => postOrder(p.id)));
  result.post_search = rows(
    sortBy(
      await db
        .selectFrom('post_search')
        .select([t.config.database.engine === 'postgres' ? 'post_id' : 'rowid as post_id', 'text'] as any)
        .execute(),
      (r: any) => postOrder(r.post_id),
    ),
  );
  // The store-keyed search keys of each post: PostgreSQL's as stored, `<store>:<trigram>` keys
  // given by its writes (storeSearchKeys), spelled as SQLite's tokens; SQLite's made from its
  // stored search text by storeSearchTokens, as its create does (its FTS5 table keeps no copy of
  // the tokens to read). PostgreSQL's must also be what its SQL function gives for the row, the
  // keys of rows written without them (migration 0020).
  const storeless = (token: string) => token.replace(/^s\d+t/, 's<store>t');
  if (t.config.database.engine === 'postgres') {
    const { rows: unlike } = await sql<{ post_id: number }>`
      SELECT post_id FROM post_search
      WHERE NOT (keys @> post_search_keys(store_id, text) AND keys <@ post_search_keys(store_id, text))`.execute(db);
    assert.deepEqual(unlike, [], 'rows whose keys are not those of their text');
  }
  const searchKeys =
    t.config.database.engine === 'postgres'
      ? (await sql<{ post_id: number; keys: string[] }>`SELECT post_id, keys FROM post_search`.execute(db)).rows.map(
          (r) => ({ post_id: r.post_id, keys: r.keys.map(asToken) }),
        )
      : (
          await sql<{ post_id: number; text: string }>`SELECT rowid AS post_id, text FROM post_search`.execute(db)
        ).rows.map((r) => ({
          post_id: r.post_id,
          keys: storeSearchTokens(ids.storeId, r.text).split(' ').filter(Boolean),
        }));
  result.search_keys = sortBy(searchKeys, (r) => postOrder(r.post_id)).map((r) => ({
    post: postRef(r.post_id),
    keys: r.keys.map(storeless).sort(),
  }));
  result.post_categories = rows(
    sortBy(await db.selectFrom('post_categories').selectAll().execute(), (r) => postOrder(r.post_id)),
  );
  result.categories = rows(await db.selectFrom('categories').selectAll().orderBy('id').execute());
  result.fingerprints = rows(
    sortBy(await db.selectFrom('content_fingerprints').selectAll().execute(), (r) => postOrder(r.post_id)),
  );
  const audit = await db.selectFrom('audit_events').selectAll().orderBy('id').execute();
  result.audit_events = rows(
    audit.map(({ id: _, ...row }) => ({
      ...row,
      resource_id:
        row.resource_type === 'post'
          ? postRef(row.resource_id)
          : row.resource_type === 'category'
            ? categoryIndex.get(Number(row.resource_id))
            : row.resource_id,
      key_id:
        row.key_id === null
          ? null
          : (keyIds.get(row.key_id) ?? keyIds.set(row.key_id, `key#${keyIds.size + 1}`).get(row.key_id)),
    })),
  );
  result.daily_usage = rows(await db.selectFrom('daily_usage').selectAll().orderBy('kind').orderBy('day').execute());
  const deliveries = await db.selectFrom('webhook_deliveries').selectAll().execute();
  // An event's deliveries to one endpoint (its replays) in the order they were queued.
  result.deliveries = rows(
    sortBy(
      sortBy(deliveries, (d) => Number(d.created_at)),
      (d) => eventOrder(d.event_id) * 100 + endpointOrder(d.endpoint_id),
    ),
  );
  // Which of the two racing creates won may differ: their keys are named by the outcome.
  const raceKey = (key: string) => (!key.startsWith('race-') ? key : key === ids.raceWinner ? 'race-won' : 'race-lost');
  result.idempotency_records = rows(
    sortBy(
      (await db.selectFrom('idempotency_records').selectAll().execute()).map(({ request_hash: _, ...row }) => ({
        ...row,
        idem_key: raceKey(row.idem_key),
      })),
      (r) => r.idem_key,
    ),
  );
  result.schedules = rows(
    sortBy(await db.selectFrom('webhook_schedules').selectAll().execute(), (r) => postOrder(r.post_id)),
  );
  // The events feed as the API answers it: whole, and filtered by types and prefixes.
  const feed = [];
  for (const query of ['', '?types=post.*', '?types=category.created,image.*']) {
    const res = await t.request({ method: 'GET', url: `/v1/events${query}`, key: ids.key });
    assert.equal(res.statusCode, 200, res.body);
    feed.push(value(res.json()));
  }
  result.feed = feed;
  return result;
}

describe('engine parity: the rows each write leaves [sqlite, postgres]', { skip: postgresEngine.skip }, () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const t of apps) await t.close();
  });

  const run = async (target: EngineTarget) => {
    const t = await startTestApp(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    apps.push(t);
    const ids = await writeEverything(t);
    return { t, ids, rows: await readEverything(t, ids) };
  };

  let sqlite: Awaited<ReturnType<typeof run>>;
  let postgres: Awaited<ReturnType<typeof run>>;
  before(async () => {
    sqlite = await run(sqliteEngine);
    postgres = await run(postgresEngine);
  });

  for (const table of [
    'endpoints',
    'posts',
    'post_search',
    'search_keys',
    'post_categories',
    'categories',
    'fingerprints',
    'audit_events',
    'daily_usage',
    'events',
    'deliveries',
    'idempotency_records',
    'schedules',
    'feed',
  ]) {
    it(`${table}: the same rows`, () => {
      assert.ok((sqlite.rows[table] as unknown[]).length > 0, `${table} holds rows`);
      assert.deepEqual(postgres.rows[table], sqlite.rows[table]);
    });
  }

  it('delivery ids are whd_ and 24 characters of [a-z0-9] on both engines', () => {
    for (const { rows } of [sqlite, postgres]) {
      const deliveries = rows.deliveries as Array<{ id: string }>;
      assert.ok(deliveries.length >= 10, `${deliveries.length} deliveries`);
      for (const d of deliveries) assert.match(d.id, /^whd_<lower-alnum 24 #\d+>$/);
    }
  });
});
