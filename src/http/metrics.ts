// Prometheus metrics (GET /metrics), one registry per app. Every label takes its value from a
// small fixed set — a route template, never a path; an error code from the catalogue; a method
// from the standard list — so no label can carry a key id, post id or other unbounded value, and
// the number of series stays bounded whatever clients send. The one store label is the
// operator's: keys close to expiry per store (state-metrics.ts).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import type { AppContext } from '../context.js';
import { ApiError } from '../lib/api-error.js';
import { ERROR_CATALOGUE } from '../lib/error-catalogue.js';
import type { TimedWork, WorkOutcome } from '../lib/observations.js';
import type { ConnectionGuard } from './connection-guard.js';
import { sendApiError } from './error-envelope.js';
import { registerStateMetrics } from './state-metrics.js';
import { REDIS_ERROR_KINDS } from '../traffic/index.js';
import { DATABASE_FAILURE_KINDS } from '../db/database-errors.js';
import { routeOf } from './route-of.js';
import { RequestTally } from './request-tally.js';

/** The `route` label of a request no route matched (its path is never a label). */
export const UNMATCHED_ROUTE = 'unmatched';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const LIMIT_OF_CODE: Record<string, string> = {
  rate_limited: 'rate',
  concurrency_limited: 'concurrency',
  quota_exceeded: 'quota',
};
const ERROR_CODE_IN_BODY = /^\{"error":\{"code":"([a-z_]+)"/;

// Requests: from a cached read (about a millisecond) to a large upload (seconds).
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Image processing and HTML filtering: milliseconds to a few seconds.
const WORK_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  readonly registry: Registry;
}

export function registerMetrics(app: FastifyInstance, ctx: AppContext, guard: ConnectionGuard): Metrics | null {
  if (!ctx.config.ops.metrics) return null;
  const registry = new Registry();
  // Process CPU, memory, handles, GC and event-loop lag (nodejs_eventloop_lag_seconds and its percentiles).
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  // Registered as prom-client metrics by shape (see request-tally.ts), not as its classes.
  const tally = new RequestTally(REQUEST_BUCKETS);
  for (const register of registers) {
    register.registerMetric(
      tally.counter(
        'http_requests_total',
        'HTTP requests answered, by method, route template and status',
      ) as unknown as Metric,
    );
    register.registerMetric(
      tally.histogram(
        'http_request_duration_seconds',
        'Time from receiving a request to finishing its answer, by method, route template and status',
      ) as unknown as Metric,
    );
  }
  const errors = new Counter({
    name: 'blog_api_errors_total',
    help: 'Error answers by API error code',
    labelNames: ['code'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'blog_api_limit_refusals_total',
    help: 'Requests refused by a limit: rate (per-minute), concurrency (in flight) or quota (per day)',
    labelNames: ['limit'] as const,
    registers,
  });
  const work: Record<TimedWork, Histogram<'outcome'>> = {
    image_processing: new Histogram({
      name: 'blog_api_image_processing_seconds',
      help: 'Time to check, decode and re-encode an uploaded image, by outcome (ok, rejected, error)',
      labelNames: ['outcome'] as const,
      buckets: WORK_BUCKETS,
      registers,
    }),
    image_variant: new Histogram({
      name: 'blog_api_image_variant_seconds',
      help: 'Time to scale and encode a responsive variant of a stored image (its first request), by outcome (ok, rejected, error)',
      labelNames: ['outcome'] as const,
      buckets: WORK_BUCKETS,
      registers,
    }),
    html_filter: new Histogram({
      name: 'blog_api_html_filter_seconds',
      help: 'Time to filter a post body, waiting for a worker thread included, by outcome (ok, rejected, error)',
      labelNames: ['outcome'] as const,
      buckets: WORK_BUCKETS,
      registers,
    }),
  };
  const turns = ctx.media.processing;
  new Gauge({
    name: 'blog_api_image_processing_in_progress',
    help: 'Images (uploads and variants) being decoded and re-encoded now (at most MEDIA_PROCESSING_CONCURRENCY)',
    registers,
    collect() {
      this.set(turns.inProgress);
    },
  });
  new Gauge({
    name: 'blog_api_image_processing_waiting',
    help: 'Uploads and first variant requests waiting for an image processing turn',
    registers,
    collect() {
      this.set(turns.waiting);
    },
  });
  // SQLite has one connection and no pool: these exist on PostgreSQL only.
  if (ctx.engine === 'postgres') registerPoolGauges(ctx, registers);

  const connectionEvents = new Counter({
    name: 'blog_api_connections_closed_total',
    help: 'Connections refused (too many without a complete request) or cut (body too slow, or a refused body sent past its bound)',
    labelNames: ['reason'] as const,
    registers,
  });
  const stopGuardEvents = guard.onEvent((reason) => connectionEvents.inc({ reason }));
  new Gauge({
    name: 'blog_api_connections_pending',
    help: 'Connections that have not yet sent a complete request',
    registers,
    collect() {
      this.set(guard.pendingConnections);
    },
  });

  const stopStateMetrics = registerStateMetrics(ctx, registers);
  // Redis errors by kind (src/traffic/redis-health.ts): while they last, limits are counted by
  // each process alone and cache versions read from PostgreSQL, so an alert belongs here.
  let stopRedis = () => {};
  if (ctx.redisHealth) {
    const redisErrors = new Counter({
      name: 'blog_api_redis_errors_total',
      help: 'Redis errors by kind (out_of_memory, read_only, timeout, unreachable, other); limits fall back to per-process counting meanwhile',
      labelNames: ['kind'] as const,
      registers,
    });
    for (const kind of REDIS_ERROR_KINDS) redisErrors.inc({ kind }, 0);
    const listener = ctx.redisHealth.onError((kind) => redisErrors.inc({ kind }));
    stopRedis = () => void listener();
  }
  // Failures of the link to PostgreSQL by kind (src/db/database-errors.ts): never SQL errors,
  // and never counted as Redis's.
  let stopDatabase = () => {};
  if (ctx.databaseHealth) {
    const databaseErrors = new Counter({
      name: 'blog_api_database_errors_total',
      help: 'Failures of the link to PostgreSQL by kind (pool_timeout, circuit_open, timeout, unreachable, other); requests answer 503 service_unavailable meanwhile',
      labelNames: ['kind'] as const,
      registers,
    });
    for (const kind of DATABASE_FAILURE_KINDS) databaseErrors.inc({ kind }, 0);
    const listener = ctx.databaseHealth.onError((kind) => databaseErrors.inc({ kind }));
    stopDatabase = () => void listener();
  }
  // Circuit breakers (src/lib/circuit-breaker.ts): open means this process stopped waiting on the dependency.
  if (ctx.breakers.length > 0) {
    const breakers = ctx.breakers;
    new Gauge({
      name: 'blog_api_circuit_open',
      help: "1 while the dependency's circuit breaker is open (it timed out repeatedly; not waited on until a probe answers)",
      labelNames: ['dependency'] as const,
      registers,
      collect() {
        for (const breaker of breakers) this.set({ dependency: breaker.name }, breaker.isOpen ? 1 : 0);
      },
    });
    new Counter({
      name: 'blog_api_circuit_opens_total',
      help: "Times the dependency's circuit breaker opened",
      labelNames: ['dependency'] as const,
      registers,
      collect() {
        this.reset();
        for (const breaker of breakers) this.inc({ dependency: breaker.name }, breaker.opens);
      },
    });
  }
  // Background jobs (src/lib/periodic.ts): runs, failures and the last success of each, read at
  // each scrape. A job that keeps failing, or whose last success grows old, is work not being done
  // (deliveries, housekeeping, the cache-version reconcile) that no request would show.
  const jobs = ctx.jobs;
  const jobCounters = [
    [
      'blog_api_job_runs_total',
      'runs',
      'Runs of each background job (housekeeping, webhook-delivery, view-counts, cache-version-reconcile)',
    ],
    [
      'blog_api_job_failures_total',
      'failures',
      'Runs of each background job that failed (each is retried at its next interval)',
    ],
  ] as const;
  for (const [name, field, help] of jobCounters) {
    new Counter({
      name,
      help,
      labelNames: ['job'] as const,
      registers,
      collect() {
        this.reset();
        for (const [job, counts] of Object.entries(jobs.counts())) this.inc({ job }, counts[field]);
      },
    });
  }
  new Gauge({
    name: 'blog_api_job_last_success_timestamp_seconds',
    help: 'When each background job last ran without failing (Unix seconds; 0 before its first success)',
    labelNames: ['job'] as const,
    registers,
    collect() {
      for (const [job, counts] of Object.entries(jobs.counts()))
        this.set({ job }, counts.lastSuccessAtMs === null ? 0 : counts.lastSuccessAtMs / 1000);
    },
  });
  const sharedVersions = ctx.sharedVersions;
  if (sharedVersions) {
    new Gauge({
      name: 'blog_api_redis_versions_trusted',
      help: '1 while the cache versions kept in Redis are used; 0 from Redis coming back (or failing) until they are checked against PostgreSQL',
      registers,
      collect() {
        this.set(sharedVersions.isTrusted ? 1 : 0);
      },
    });
  }

  const stopListening = ctx.observers.add({
    timed(name: TimedWork, seconds: number, outcome: WorkOutcome) {
      work[name].observe({ outcome }, seconds);
    },
  });
  app.addHook('onClose', async () => {
    stopListening();
    stopGuardEvents();
    stopStateMetrics();
    stopDatabase();
    stopRedis();
  });

  // The error code is read from the envelope as it is sent: every error answer, whichever path
  // produced it, passes here, and only error answers pay for the look.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      const code = ERROR_CODE_IN_BODY.exec(payload)?.[1];
      if (code && code in ERROR_CATALOGUE) {
        errors.inc({ code });
        const limit = LIMIT_OF_CODE[code];
        if (limit) refusals.inc({ limit });
      }
    }
    done(null, payload);
  });

  // Admitted /v1 requests (key, limits and gates passed; holding an in-flight slot) not yet
  // answered: what a draining process still has to finish. Read from the pipeline's count when
  // scraped, so no request pays for it.
  new Gauge({
    name: 'http_requests_in_flight',
    help: 'Admitted /v1 requests not yet answered',
    registers,
    collect() {
      this.set(app.requestsInFlight?.() ?? 0);
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    tally.record(methodLabel(request.method), routeLabel(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const token = ctx.config.ops.metricsToken;
  app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    if (token && !bearerMatches(request.headers.authorization, token))
      return sendApiError(request, reply, new ApiError('unauthorized'));
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
  return { registry };
}

function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

function routeLabel(request: FastifyRequest): string {
  // The template a route was registered with; a request no route matched has none.
  return routeOf(request).url ?? UNMATCHED_ROUTE;
}

/** Constant-time comparison, so the token cannot be found a byte at a time from response times. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function registerPoolGauges(ctx: AppContext, registers: Registry[]): void {
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  gauge(
    'blog_api_db_pool_connections_in_use',
    'PostgreSQL pool connections running a query or held by a transaction',
    () => ctx.poolUsage()?.inUse,
  );
  gauge(
    'blog_api_db_pool_waiting',
    'Queries waiting for a PostgreSQL pool connection because all are in use',
    () => ctx.poolUsage()?.waiting,
  );
  gauge(
    'blog_api_db_pool_connections_open',
    'PostgreSQL pool connections open, in use or idle',
    () => ctx.poolUsage()?.open,
  );
  gauge(
    'blog_api_db_pool_max',
    'DATABASE_POOL_MAX: the most connections the pool opens',
    () => ctx.config.ops.databasePoolMax,
  );
}
