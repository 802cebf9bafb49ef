// Property-based fuzzing of every /v1 route over a real socket, on both engines, with real keys.
// Properties: every answer is a documented answer (status, headers, envelope; never a 5xx); what a
// write returns is what a read returns afterwards; records written before the run read back
// identically after it.
//
// Bounded and reproducible: FUZZ_SEED replays a run (the seed is printed first), FUZZ_RUNS caps
// the cases per property (default 250), FUZZ_TIME_MS caps the time per engine (default 60000).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describeEachEngine, sqliteEngine } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { assertContractAnswer, isAnswer, jsonOf } from './contract-answer.js';
import { encodeRequest, sendRaw, type NoAnswer, type RawAnswer } from './raw-http.js';
import { buildRequest, caseArb, type Family, type FuzzCase } from './requests.js';
import { v1Routes, type FuzzRoute } from './routes.js';
import { buildWorld, MAIN_KEY_CONCURRENCY, snapshot, type Snapshot, type World } from './world.js';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const TIME_PER_ENGINE_MS = Number(process.env.FUZZ_TIME_MS ?? 60_000);
assert.ok(
  Number.isInteger(SEED) && Number.isInteger(RUNS) && RUNS > 0 && TIME_PER_ENGINE_MS > 0,
  'FUZZ_SEED, FUZZ_RUNS and FUZZ_TIME_MS are integers',
);
const REPLAY = `replay with FUZZ_SEED=${SEED} npm run test:all -- fuzz`;
console.log(`# fuzz seed ${SEED} (${REPLAY})`);

const FAMILIES: Family[] = ['body and query', 'path', 'headers and framing'];
/** At most 100 details of at most a few hundred bytes each. */
const ANSWER_CEILING_BYTES = 64 * 1024;
const TIME_CEILING_MS = 5_000;
/** The app answers with a smaller JSON ceiling so bodies above it are cheap to send. */
const APP_ENV = { MAX_JSON_BODY_BYTES: String(256 * 1024) };

const routes = await discoverRoutes();

describeEachEngine('fuzz: every /v1 route answers as documented', (target) => {
  let t: TestApp;
  let w: World;
  let before_: Snapshot;
  let deadline = 0;
  before(async () => {
    t = await startTestApp(target, APP_ENV);
    w = await buildWorld(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    w.port = (t.app.server.address() as AddressInfo).port;
    before_ = await snapshot(t, w);
    deadline = Date.now() + TIME_PER_ENGINE_MS;
  });
  after(() => t?.close());

  it('covers every /v1 route the router holds', () => {
    assert.ok(routes.length >= 14, routes.map((r) => `${r.method} ${r.url}`).join(', '));
    // CORS preflights (OPTIONS of the Content API) are answered by the CORS layer, not operations:
    // OpenAPI does not describe them; they are fuzzed all the same.
    for (const r of routes.filter((route) => route.method !== 'OPTIONS'))
      assert.ok(r.operation, `${r.method} ${r.url} is described in /v1/openapi.json`);
  });

  let index = 0;
  for (const route of routes) {
    for (const family of FAMILIES) {
      const seed = SEED + index++;
      it(`${family}: ${route.method} ${route.url}`, async () => {
        const propertiesLeft = routes.length * FAMILIES.length - (seed - SEED);
        const timeLimit = Math.max(500, Math.floor((deadline - Date.now()) / propertiesLeft));
        await runProperty(
          route,
          family,
          seed,
          timeLimit,
          () => w,
          () => t,
        );
      });
    }
  }

  it('no request of the run still holds one of the key’s in-flight slots', async () => {
    const answers = await Promise.all(
      Array.from({ length: MAIN_KEY_CONCURRENCY }, () => t.request({ method: 'GET', url: '/v1/me', key: w.keys.main })),
    );
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      answers.map(() => 200),
      answers.find((r) => r.statusCode !== 200)?.body,
    );
  });

  it('records written before the run read back identically, and the database is intact', async () => {
    const now = await snapshot(t, w);
    assert.deepEqual(now.sentinel, before_.sentinel);
    assert.deepEqual(now.otherPost, before_.otherPost);
    assert.deepEqual(now.otherCategories, before_.otherCategories);
    assert.deepEqual(now.mainCategories, before_.mainCategories);
    assert.ok(now.sentinelCover.equals(before_.sentinelCover), 'the cover image file is unchanged');
    if (target.name === 'sqlite') {
      const { rows } = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(t.ctx.db);
      assert.deepEqual(rows, [{ integrity_check: 'ok' }]);
    }
  });
});

async function runProperty(
  route: FuzzRoute,
  family: Family,
  seed: number,
  timeLimitMs: number,
  world: () => World,
  app: () => TestApp,
): Promise<void> {
  // fast-check stops awaiting a case when the time limit interrupts it, and the case's request
  // then runs on unseen; every case is kept here and all are awaited before the property ends, so
  // no request overlaps the next property or the slot check, and a late failure still fails the
  // property (a case fast-check awaited that failed has failed the assertion already).
  const cases: Array<Promise<void>> = [];
  const property = fc.asyncProperty(caseArb(route, family), (c: FuzzCase) => {
    const run = runCase(c);
    // Handled at once: an interrupted case's failure is read from `cases` below, not reported
    // as an unhandled rejection.
    run.catch(() => undefined);
    cases.push(run);
    return run;
  });
  const runCase = async (c: FuzzCase): Promise<void> => {
    const w = world();
    const req = buildRequest(route, c, w);
    let res: RawAnswer | NoAnswer;
    try {
      const started = performance.now();
      res = await sendRaw(w.port, encodeRequest(req.raw));
      const took = performance.now() - started;
      assertContractAnswer(res, req.method, route.url);
      // Bounded work (docs/api-behaviour.md): an error answer is small whatever the input, and
      // no answer takes long (generous: the machine may be shared).
      if (isAnswer(res) && res.status >= 400)
        assert.ok(res.body.length <= ANSWER_CEILING_BYTES, `an error answer of ${res.body.length} bytes`);
      assert.ok(took <= TIME_CEILING_MS, `answered in ${took.toFixed(0)} ms`);
      if (isAnswer(res)) await followUp(app(), w, route, c, res);
    } catch (err) {
      (err as Error).message = `${req.summary}\n${(err as Error).message}`;
      throw err;
    }
  };
  try {
    await fc.assert(property, { seed, numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(timeLimitMs)] });
    const late = await Promise.allSettled(cases);
    const failed = late.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      const reason = failed.reason as Error;
      throw new Error(`a case the time limit interrupted failed afterwards: ${reason.message}`, { cause: reason });
    }
  } catch (err) {
    await Promise.allSettled(cases);
    (err as Error).message = `${REPLAY}\n${(err as Error).message}`;
    throw err;
  }
  // Every request of the property has ended, so none may still hold an in-flight slot once the
  // server has seen its sockets close (a client can see a close a few turns before the server
  // does: a connection the server cut after an answer, or after a client error). A leak is named
  // here with the property that caused it, not found at the end of the run.
  const server = app().app;
  const giveUpAt = performance.now() + 2_000;
  while (server.requestsInFlight() > 0 && performance.now() < giveUpAt)
    await new Promise((resolve) => setImmediate(resolve));
  assert.equal(
    server.requestsInFlight(),
    0,
    `in-flight slots still held after ${family}: ${route.method} ${route.url}`,
  );
}

const keyOf = (w: World, c: FuzzCase) => (typeof c.auth === 'string' && c.auth !== 'none' ? w.keys[c.auth] : null);

/**
 * After an answer: what a write returned must be what a read returns now, and live ids, cursors
 * and tokens join the pools later cases pick from.
 */
async function followUp(t: TestApp, w: World, route: FuzzRoute, c: FuzzCase, res: RawAnswer): Promise<void> {
  const key = keyOf(w, c);
  const mine = c.auth === 'main';
  if (res.status === 409) {
    const token = jsonOf(res).error.details.find((d: { field: string }) => d.field === 'confirmation_token');
    if (token && mine) w.tokens.push(token.issue);
  }
  if (res.status >= 300 || res.status === 204 || !key || res.body.length === 0) return;
  const body = jsonOf(res);
  const read = async (url: string) => {
    const r = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    assert.equal(r.statusCode, 200, `read back ${url}: ${r.body}`);
    return r.json();
  };
  if (route.url.startsWith('/v1/blog/posts') && Number.isInteger(body.id) && 'body_html' in body) {
    const { warnings: _warnings, ...written } = body;
    const stored = await read(`/v1/blog/posts/${body.id}`);
    delete stored.warnings;
    assert.deepEqual(stored, written, 'a post reads back as the write answered it');
    if (mine && body.id !== w.sentinelPostId && !w.posts.includes(body.id)) w.posts.push(body.id);
  } else if (
    (route.url === '/v1/blog/categories' && res.status === 201) ||
    (route.url === '/v1/blog/categories/:id' && res.status === 200)
  ) {
    const listed = (await read('/v1/blog/categories')).data.find((x: { id: number }) => x.id === body.id);
    assert.deepEqual(listed, body, 'a category reads back as the write answered it');
    if (mine && !w.categories.includes(body.id)) w.categories.push(body.id);
  } else if (route.url === '/v1/media/images' && typeof body.id === 'string') {
    const file = await t.app.inject({ method: 'GET', url: body.path });
    assert.equal(file.statusCode, 200, `the uploaded file is served: ${body.path}`);
    assert.equal(file.rawPayload.length, body.bytes);
    if (mine && !w.images.includes(body.id)) {
      w.images.push(body.id);
      w.imageUrls.push(body.url);
    }
  }
  if (Array.isArray(body.data) && body.meta?.next_cursor && mine) w.cursors.push(body.meta.next_cursor);
}

/** The route list, read from a running app: its router and its OpenAPI description. */
async function discoverRoutes(): Promise<FuzzRoute[]> {
  const t = await startTestApp(sqliteEngine, APP_ENV);
  try {
    const { key } = await t.tenant({ scopes: ['read_blog'] });
    const res = await t.request({ method: 'GET', url: '/v1/openapi.json', key });
    assert.equal(res.statusCode, 200, res.body);
    return v1Routes(t.app, res.json());
  } finally {
    await t.close();
  }
}
