// The ceiling: a bare node:http server answering every GET with one post's JSON held in memory
// (the same bytes the API returns for GET /v1/blog/posts/{id}). No routing, no database.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const payload = readFileSync(process.env.BENCH_PAYLOAD_FILE ?? '');
const port = Number(process.env.PORT ?? 0);

const server = createServer((req, res) => {
  if (req.method !== 'GET') {
    res.writeHead(405, { 'Content-Length': '0' });
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(payload.length) });
  res.end(payload);
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1');

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
