// Store front pages: GET/HEAD /s/<handle>/blog, /s/<handle>/blog/posts/<id> and the preview
// pages of /s/<handle>/blog/preview/<token>. Not part of
// /v1: no key, no policy, hidden from the OpenAPI description. See docs/storefront.md.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { renderErrorPage, renderNotFoundPage, STOREFRONT_CSS } from '../../modules/storefront/index.js';
import { pageHeaders, storefrontCsp } from '../page-security.js';
import { etagOf, httpDate, isNotModified } from '../http-validators.js';

/** Shared caches may keep a page but must revalidate each time: unpublishing takes effect at once and every view reaches the counter (as a 200 or a 304). */
const PAGE_CACHE = 'public, no-cache';

type PostRoute = { Params: { handle: string; id: string } };
type IndexRoute = { Params: { handle: string }; Querystring: { before?: unknown } };

export function registerStorefrontRoutes(app: FastifyInstance, ctx: AppContext): void {
  const storefront = ctx.storefront;
  storefront.views.onError = (err) =>
    app.log.warn({ err }, 'page view counts not written yet; they are kept and retried');
  // One policy for every page: the stylesheet is the same constant everywhere.
  const security = pageHeaders(storefrontCsp(STOREFRONT_CSS, ctx.config.publicBaseUrl));

  const startPage = (reply: FastifyReply) => {
    // The pipeline's API headers do not describe a page.
    reply.removeHeader('X-Svc-Api-Version');
    return reply.headers(security).type('text/html; charset=utf-8');
  };
  const notFound = (reply: FastifyReply) =>
    startPage(reply).code(404).header('Cache-Control', 'no-store').send(renderNotFoundPage());
  const failed = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    request.log.error({ err }, 'store front page failed');
    return startPage(reply).code(500).header('Cache-Control', 'no-store').send(renderErrorPage());
  };
  const sendPage = (request: FastifyRequest, reply: FastifyReply, body: string, lastModified?: number) => {
    const etag = etagOf(body);
    startPage(reply).header('Cache-Control', PAGE_CACHE).header('ETag', etag);
    if (lastModified !== undefined) reply.header('Last-Modified', httpDate(lastModified));
    if (isNotModified(request.headers, etag, lastModified ?? null)) return reply.code(304).send();
    return reply.send(body);
  };

  app.get<PostRoute>('/s/:handle/blog/posts/:id', { schema: { hide: true } }, async (request, reply) => {
    try {
      const page = await ctx.storefront.postPage(request.params.handle, request.params.id);
      if (!page) return notFound(reply);
      // A HEAD is not a view (link checkers, bots); a revalidated GET (304) is.
      if (request.method === 'GET') storefront.recordView(page.postId);
      return sendPage(request, reply, page.html, page.lastModified);
    } catch (err) {
      return failed(request, reply, err);
    }
  });

  // A preview link's page: never cached or indexed, never a view, and its address (which holds
  // the signature) is not sent on as a Referer by links in the body.
  app.get<{ Params: { handle: string; token: string } }>(
    '/s/:handle/blog/preview/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      try {
        const page = await storefront.previewPage(request.params.handle, request.params.token);
        if (!page) return notFound(reply.header('X-Robots-Tag', 'noindex'));
        return startPage(reply)
          .header('Cache-Control', 'no-store')
          .header('X-Robots-Tag', 'noindex, nofollow')
          .header('Referrer-Policy', 'no-referrer')
          .header('Last-Modified', httpDate(page.lastModified))
          .send(page.html);
      } catch (err) {
        return failed(request, reply, err);
      }
    },
  );

  app.get<IndexRoute>('/s/:handle/blog', { schema: { hide: true } }, async (request, reply) => {
    try {
      const before = request.query.before;
      if (before !== undefined && typeof before !== 'string') return notFound(reply);
      const page = await storefront.indexPage(request.params.handle, before);
      if (!page) return notFound(reply);
      // No Last-Modified: a post leaving the list would not move it forward; the ETag sees it.
      return sendPage(request, reply, page.html);
    } catch (err) {
      return failed(request, reply, err);
    }
  });

  // Anything else under /s/ is a page that does not exist, answered as a page.
  app.get('/s/*', { schema: { hide: true } }, async (_request, reply) => notFound(reply));
}
