// The one-query ceiling: a bare node:http server that answers every GET with one indexed point
// read of the same post from PostgreSQL (one pool, a named prepared statement) and then the same
// JSON the API returns for that post. The limit of "one request, one database round trip" here.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import pg from 'pg';

const payload = readFileSync(process.env.BENCH_PAYLOAD_FILE ?? '');
const postId = Number(process.env.BENCH_POST_ID);
const port = Number(process.env.PORT ?? 0);
// The API's pool size, so both have the same number of connections to the server.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.BENCH_POOL_SIZE ?? 10),
});
const read = { name: 'one_post', text: 'SELECT * FROM posts WHERE id = $1', values: [postId] };

const server = createServer((req, res) => {
  if (req.method !== 'GET') {
    res.writeHead(405, { 'Content-Length': '0' });
    res.end();
    return;
  }
  pool.query(read).then(
    (result) => {
      if (result.rows.length !== 1) throw new Error(`post ${postId} not found`);
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(payload.length),
      });
      res.end(payload);
    },
    (err) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    },
  );
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1');

const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
