// Preloaded into the servers under test by the benchmark (with --expose-gc). On SIGUSR2 it runs
// a full garbage collection and prints the memory left, so that a leak shows as live heap that
// grows from one repetition to the next, apart from when the collector happens to run; and the
// number of queries the process has sent to PostgreSQL so far (every pg client query counts,
// BEGIN and COMMIT included), and the commands it has sent to Redis (each command of a pipeline
// counts), so the benchmark can show round trips per request.
let reports = 0;
/** null: not a PostgreSQL process, nothing counted. */
let queries = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '') ? 0 : null;
if (queries !== null)
  try {
    const { default: pg } = await import('pg');
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function countedQuery(...args) {
      queries++;
      return query.apply(this, args);
    };
  } catch {
    // Not a PostgreSQL process (or pg is not installed where it runs): no count.
  }
/** null: Redis is not configured, nothing counted. */
let redisCommands = process.env.REDIS_URL ? 0 : null;
if (redisCommands !== null)
  try {
    const { Redis } = await import('ioredis');
    const sendCommand = Redis.prototype.sendCommand;
    Redis.prototype.sendCommand = function countedCommand(...args) {
      redisCommands++;
      return sendCommand.apply(this, args);
    };
  } catch {
    redisCommands = null;
  }
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stderr.write(
    `BENCH_MEMORY_AFTER_GC ${JSON.stringify({ n: ++reports, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss, queries, redisCommands })}\n`,
  );
});
