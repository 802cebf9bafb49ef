// The create ceiling: a bare node:http server that reads each POST's JSON body (the same
// requests the API's create row sends), parses it and commits one INSERT of it, answering 201
// with the new row's id. The database is opened by the service's own openDatabase (src/db), with
// the options the service opens it with: SQLite's connection and pragmas (WAL,
// synchronous=NORMAL, …) and statement cache; PostgreSQL's bounded pool of DATABASE_POOL_MAX
// connections with named prepared statements. No routing, validation, idempotency, search text,
// events or cache versions: the limit of "one request, one committed insert" on this machine.
// Its rows go to a table of its own, so no trigger or index of the posts table is counted.
// BENCH_APP_ROOT chooses the built output (dist/src) or the source (src), as for the API.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompiledQuery, sql } from 'kysely';

const root = process.env.BENCH_APP_ROOT ?? join(import.meta.dirname, '..', 'dist', 'src');
// Under tsx a `.js` specifier also finds the `.ts` source.
const load = (path: string) => import(pathToFileURL(join(root, `${path}.js`)).href);

// Typed as the source modules; the built ones have the same exports.
const { loadConfig } = (await load('config/config')) as typeof import('../src/config/config.js');
const { openDatabase } = (await load('db/database')) as typeof import('../src/db/database.js');

const config = loadConfig();
// The options src/context.ts opens the service's database with, from the same configuration.
const handle = openDatabase(config.database, {
  poolSize: config.ops.databasePoolMax,
  statementTimeoutMs: config.ops.databaseStatementTimeoutMs,
  connectTimeoutMs: config.ops.databaseConnectTimeoutMs,
  poolWaitTimeoutMs: config.ops.databasePoolWaitTimeoutMs,
  checkTimeoutMs: config.ops.healthCheckTimeoutMs,
});

const TABLE = 'bench_create_ceiling';
const postgres = handle.engine === 'postgres';
await sql
  .raw(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (id ${postgres ? 'bigserial' : 'integer'} PRIMARY KEY, ` +
      'title text NOT NULL, summary text, body_html text NOT NULL, created_at bigint NOT NULL)',
  )
  .execute(handle.db);
const insertSql = postgres
  ? `INSERT INTO ${TABLE} (title, summary, body_html, created_at) VALUES ($1, $2, $3, $4) RETURNING id`
  : `INSERT INTO ${TABLE} (title, summary, body_html, created_at) VALUES (?, ?, ?, ?) RETURNING id`;

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function create(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let post: { title?: unknown; summary?: unknown; body_html?: unknown };
  try {
    post = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof post;
  } catch {
    return answer(res, 400, '{"error":"invalid JSON"}');
  }
  if (typeof post?.title !== 'string' || typeof post.body_html !== 'string')
    return answer(res, 400, '{"error":"title and body_html must be strings"}');
  const summary = typeof post.summary === 'string' ? post.summary : null;
  const result = await handle.db.executeQuery<{ id: number }>(
    CompiledQuery.raw(insertSql, [post.title, summary, post.body_html, Date.now()]),
  );
  answer(res, 201, `{"id":${result.rows[0].id}}`);
}

const server = createServer((req, res) => {
  if (req.method === 'GET') return answer(res, 200, '{"ok":true}');
  if (req.method !== 'POST') return answer(res, 405, '{"error":"method not allowed"}');
  create(req, res).catch((err: unknown) => {
    if (!res.headersSent) answer(res, 500, JSON.stringify({ error: String(err) }));
  });
});
server.keepAliveTimeout = 72_000;
server.listen(config.port, '127.0.0.1');

const stop = () => server.close(() => void handle.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
