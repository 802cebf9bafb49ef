import type { FastifyInstance } from 'fastify';
import { ApiError, detail } from '../lib/api-error.js';
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../lib/request-bounds.js';
import { markTextChecked } from './validation.js';

/**
 * JSON is the only body type besides multipart (which the upload route registers). Any other
 * Content-Type is refused by Fastify and mapped to 422 (field Content-Type). An empty JSON body
 * reads as "no body", so endpoints whose body is optional (publish, delete step 1) accept it.
 * Nesting deeper than MAX_JSON_DEPTH, or more than MAX_JSON_VALUES values, is refused in one pass
 * over the bytes before they are decoded and parsed, so neither the parser nor any later check
 * that walks the value (the schema, the Unicode check) can run out of stack or spend long on it
 * (docs/api-behaviour.md, "Bounded work per request").
 */
export function registerJsonBody(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const bytes = body as Buffer;
    if (isBlank(bytes)) return done(null, undefined);
    const problem = jsonShapeProblem(bytes, MAX_JSON_DEPTH, MAX_JSON_VALUES);
    if (problem !== null) return done(shapeError(problem), undefined);
    const text = bytes.toString('utf8');
    const textChecked = !hasSuspectEscape(bytes);
    // Fastify's default parser answers through the callback and returns nothing; `void` because
    // its type also covers the parsers that return a promise instead.
    void parseJson(request, text, (error, value: unknown) => {
      if (!error && textChecked && typeof value === 'object' && value !== null) markTextChecked(value);
      done(error, value);
    });
  });
}

/**
 * Whether the body holds a JSON escape that could spell a lone UTF-16 surrogate or U+0000
 * (`\ud800`, `\u0000`). Decoded bytes can hold neither (invalid UTF-8 becomes U+FFFD, and JSON
 * refuses a raw control character), so a body without such an escape needs no walk of its
 * strings to look for them. `indexOf` finds each `\u`; an escaped backslash before a `u` only
 * makes this answer yes more often, which costs the walk, never a missed check.
 */
function hasSuspectEscape(bytes: Buffer): boolean {
  for (let at = bytes.indexOf('\\u'); at !== -1; at = bytes.indexOf('\\u', at + 2)) {
    const first = bytes[at + 2] | 0x20; // lower-cases a hex letter
    const second = bytes[at + 3] | 0x20;
    if (first === 0x64 && ((second >= 0x38 && second <= 0x39) || (second >= 0x61 && second <= 0x66))) return true; // d8–df
    if (first === 0x30 && second === 0x30 && bytes[at + 4] === 0x30 && bytes[at + 5] === 0x30) return true; // 0000
  }
  return false;
}

/** Nothing but white space, as String.prototype.trim sees it. */
function isBlank(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) continue;
    // trim also removes non-ASCII white space (a BOM, a no-break space…): decide on the text.
    return c >= 0x80 ? bytes.toString('utf8').trim() === '' : false;
  }
  return true;
}

function shapeError(problem: 'depth' | 'values'): ApiError {
  const issue =
    problem === 'depth'
      ? `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`
      : `must not hold more than ${MAX_JSON_VALUES} values (object members and array items)`;
  return new ApiError('validation_failed', [detail('body', issue)]);
}
