// Logger options. Secrets never reach a log: the Authorization header is redacted, and any
// key-shaped text in a logged URL (a key wrongly put in a query string) keeps only its key_id.
import type { FastifyServerOptions } from 'fastify';
import type { FastifyRequest } from 'fastify';

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
