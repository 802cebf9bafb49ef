// The framework ceiling: Fastify with one route answering every GET with one post's JSON held in
// memory (the same bytes the API returns for GET /v1/blog/posts/{id}), and pino at info writing
// one line per request to a file, as the API's access line does. No authentication, limits,
// cache, metrics or database: what the API adds on top of its framework is the gap to this row.
import { readFileSync } from 'node:fs';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';

const payload = readFileSync(process.env.BENCH_PAYLOAD_FILE ?? '');
const port = Number(process.env.PORT ?? 0);
// Standard output is the log file (the benchmark opens it), written as the API writes its own.
const logger = pino({ level: 'info' }, pino.destination({ dest: 1, sync: false, minLength: 4096 }));

// Fastify's own request logging writes two lines a request; the API writes one access line.
const app = Fastify({
  loggerInstance: logger,
  logController: new LogController({ disableRequestLogging: true }),
  keepAliveTimeout: 72_000,
});
app.addHook('onResponse', (request, reply, done) => {
  request.log.info(
    { method: request.method, url: request.url, status: reply.statusCode, duration_ms: reply.elapsedTime },
    'request completed',
  );
  done();
});
app.get('/*', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(payload);
});

await app.listen({ port, host: '127.0.0.1' });
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
