// Logger options and the access log. Secrets never reach a log: the Authorization header is
// redacted, any key-shaped text in a logged URL (a key wrongly put in a query string) keeps
// only its key_id, and the access line names the route pattern, not the URL.
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { routeOf } from './route-of.js';

const KEY_IN_TEXT = /(svc_live_[a-z0-9]{8})_[A-Za-z0-9]+/g;

export function redactKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1_[REDACTED]');
}

/**
 * Without a stream, lines go to stdout through an asynchronous writer: a write queues the line
 * and returns, and the queue is written while the event loop does other work (a synchronous
 * write to a pipe or terminal per line halved read throughput). Lines are written in batches
 * of 4 KB, or every 250 ms when fewer come, instead of one system call a line; pino flushes
 * what is queued when the process exits.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    stream: stream ?? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 }),
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[REDACTED]' },
    serializers: {
      req(req: FastifyRequest) {
        return { id: req.id, method: req.method, url: redactKeys(req.url ?? '') };
      },
    },
  };
}

/** A user agent longer than this is cut in the access line (a client chooses its length). */
export const USER_AGENT_MAX_LOGGED = 256;

/**
 * One access line per request at `info`, when the response has been sent: method, route
 * pattern, status, duration, request id, key and store, the client's address (from
 * X-Forwarded-For only as far as TRUST_PROXY trusts) and user agent (instead of Fastify's two
 * lines, one on arrival and one on completion). Written through the root logger, so no
 * per-request child logger is made for it.
 */
/** pino's level numbers. */
const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

export function registerAccessLog(app: FastifyInstance): void {
  const root = app.log as FastifyBaseLogger & { isLevelEnabled(level: string): boolean };
  // The access line is made of the fields below only (no header, no body), so the redaction of
  // the root logger has nothing to find in it; skipping it halves the line's cost (pino's
  // redaction copies and walks every logged object, about half of the line's CPU).
  const log = root.child({}, { redact: { paths: [] } }) as typeof root;
  app.addHook('onResponse', (request, reply, done) => {
    // A route may log above info (health probes every few seconds log at warn only).
    const routeLevel = routeOf(request).logLevel;
    const quietRoute = routeLevel !== undefined && (LEVEL_VALUES[routeLevel] ?? 0) > LEVEL_VALUES.info;
    if (!quietRoute && log.isLevelEnabled('info')) {
      const caller = request.caller;
      log.info(
        {
          reqId: request.id,
          method: request.method,
          route: routeOf(request).url ?? null,
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 100) / 100,
          key_id: caller?.keyId ?? null,
          store: caller?.store.handle ?? null,
          client_ip: request.ip ?? null,
          user_agent: userAgent(request.headers['user-agent']),
        },
        'request completed',
      );
    }
    done();
  });
}

function userAgent(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  return header.length > USER_AGENT_MAX_LOGGED ? `${header.slice(0, USER_AGENT_MAX_LOGGED)}…` : header;
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger that builds its real child logger only when a message at an enabled level
 * is written. Fastify makes a child per request and the pipeline adds the caller to it; pino's
 * child() serialises its bindings up front, which cost more than the rest of logging when
 * nothing was written at the configured level.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  private real: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions = {},
  ) {}

  get level(): string {
    return this.real ? this.real.level : this.parent.level;
  }

  set level(level: string) {
    this.materialize().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    if (this.real) return this.real.child(bindings, options);
    return new LazyChildLogger(
      this.parent,
      { ...this.bindings, ...bindings },
      options ? { ...this.options, ...options } : this.options,
    );
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(level: Level, args: LogArgs): void {
    if (
      !this.real &&
      !(this.parent as FastifyBaseLogger & { isLevelEnabled(l: string): boolean }).isLevelEnabled(level)
    )
      return;
    (this.materialize()[level] as (...a: LogArgs) => void)(...args);
  }

  private materialize(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }
}

export const lazyChildLoggerFactory = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger => new LazyChildLogger(logger, bindings, options);
