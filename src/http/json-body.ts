import type { FastifyInstance } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { Transform } from 'node:stream';
import { JsonShapeWatch, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../lib/request-bounds.js';

/**
 * JSON is the only body type besides multipart (which the upload route registers). Any other
 * Content-Type is refused by Fastify and mapped to 422 (field Content-Type). An empty JSON body
 * reads as "no body", so endpoints whose body is optional (publish, delete step 1) accept it.
 * Nesting deeper than MAX_JSON_DEPTH, or more than MAX_JSON_VALUES values, is refused while the
 * body arrives (the rest is not read), so neither the parser nor any later check that walks the
 * value (the schema, the Unicode check) can run out of stack or spend long on it, and the watch
 * itself runs a chunk at a time, never holding the event loop for a whole body
 * (docs/api-behaviour.md, "Bounded work per request").
 */
export function registerJsonBody(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parseJson(request, String(body), done);
  });
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return payload;
    const watch = new JsonShapeWatch(MAX_JSON_DEPTH, MAX_JSON_VALUES);
    const watched = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        const problem = watch.feed(chunk);
        if (problem === null) return callback(null, chunk);
        callback(shapeError(problem));
      },
    });
    payload.on('error', (err) => watched.destroy(err));
    // Fastify reports the error while it reads the body; a body it refused unread (by its
    // Content-Length) may still flow through here, and its error has no one to go to.
    watched.on('error', () => undefined);
    return payload.pipe(watched);
  });
}

function shapeError(problem: 'depth' | 'values'): ApiError {
  const issue = problem === 'depth' ? `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep` : `must not hold more than ${MAX_JSON_VALUES} values (object members and array items)`;
  return new ApiError('validation_failed', [detail('body', issue)]);
}
