import type { FastifyInstance } from 'fastify';

/**
 * JSON is the only body type besides multipart (which the upload route registers). Any other
 * Content-Type is refused by Fastify and mapped to 422 (field Content-Type). An empty JSON body
 * reads as "no body", so endpoints whose body is optional (publish, delete step 1) accept it.
 */
export function registerJsonBody(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parseJson(request, String(body), done);
  });
}
