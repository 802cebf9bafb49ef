// Logger options. Secrets never reach a log: the Authorization header is redacted, and any
// key-shaped text in a logged URL (a key wrongly put in a query string) keeps only its key_id.
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';

const KEY_IN_TEXT = /(svc_live_[a-z0-9]{8})_[A-Za-z0-9]+/g;

export function redactKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1_[REDACTED]');
}

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[REDACTED]' },
    serializers: {
      req(req: FastifyRequest) {
        return { id: req.id, method: req.method, url: redactKeys(req.url ?? '') };
      },
    },
  };
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
    return new LazyChildLogger(this.parent, { ...this.bindings, ...bindings }, options ? { ...this.options, ...options } : this.options);
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
    if (!this.real && !(this.parent as FastifyBaseLogger & { isLevelEnabled(l: string): boolean }).isLevelEnabled(level)) return;
    (this.materialize()[level] as (...a: LogArgs) => void)(...args);
  }

  private materialize(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }
}

export const lazyChildLoggerFactory = (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
  new LazyChildLogger(logger, bindings, options);
