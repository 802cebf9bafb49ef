import type { FastifyInstance } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../lib/request-bounds.js';

/**
 * JSON is the only body type besides multipart (which the upload route registers). Any other
 * Content-Type is refused by Fastify and mapped to 422 (field Content-Type). An empty JSON body
 * reads as "no body", so endpoints whose body is optional (publish, delete step 1) accept it.
 * Nesting deeper than MAX_JSON_DEPTH, or more than MAX_JSON_VALUES values, is refused in one pass
 * over the text before it is parsed, so neither the parser nor any later check that walks the
 * value (the schema, the Unicode check) can run out of stack or spend long on it
 * (docs/api-behaviour.md, "Bounded work per request").
 */
export function registerJsonBody(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    const text = String(body);
    const problem = jsonShapeProblem(text, MAX_JSON_DEPTH, MAX_JSON_VALUES);
    if (problem !== null) return done(shapeError(problem), undefined);
    // Fastify's default parser answers through done and returns nothing; `void` because its type
    // also covers the parsers that return a promise instead.
    void parseJson(request, text, done);
  });
}

function shapeError(problem: 'depth' | 'values'): ApiError {
  const issue = problem === 'depth' ? `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep` : `must not hold more than ${MAX_JSON_VALUES} values (object members and array items)`;
  return new ApiError('validation_failed', [detail('body', issue)]);
}
