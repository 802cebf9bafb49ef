// Store front pages: GET/HEAD /s/<handle>/blog, /s/<handle>/blog/categories/<id>,
// /s/<handle>/blog/posts/<id>, the preview pages of /s/<handle>/blog/preview/<token>, and the
// view beacon (its script and its POST). Not part of /v1: no key, no policy, hidden from the
// OpenAPI description. See docs/storefront.md and docs/publishing.md.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import {
  renderErrorPage,
  renderNotFoundPage,
  STOREFRONT_CSS,
  VIEW_BEACON_JS,
  VIEW_BEACON_SCRIPT_PATH,
} from '../../modules/storefront/index.js';
import { pageHeaders, storefrontCsp } from '../page-security.js';
import { httpDate } from '../http-validators.js';
import { sendPublic } from '../public-cache.js';

type PostRoute = { Params: { handle: string; id: string } };
type ListRoute = { Params: { handle: string; id?: string }; Querystring: { before?: unknown } };

/** The beacon script's address carries its hash (?v=), so a copy may be kept for a day. */
const SCRIPT_CACHE = 'public, max-age=86400';

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

  app.get<PostRoute>('/s/:handle/blog/posts/:id', { schema: { hide: true } }, async (request, reply) => {
    try {
      const page = await ctx.storefront.postPage(request.params.handle, request.params.id);
      if (!page) return notFound(reply);
      // Views are counted by the page's beacon, so a cached copy may serve the page.
      return sendPublic(request, startPage(reply), ctx.config.publicCache, {
        body: page.html,
        lastModified: page.lastModified,
      });
    } catch (err) {
      return failed(request, reply, err);
    }
  });

  // The view beacon: one POST per page load, sent by the page's script. 204 whether it counted
  // or not (robot, repeat; see view-beacon.ts), so it tells a client nothing; 404 for a post
  // that is not visible.
  app.post<PostRoute>(
    '/s/:handle/blog/posts/:id/views',
    { schema: { hide: true }, bodyLimit: 1024 },
    async (request, reply) => {
      reply.removeHeader('X-Svc-Api-Version');
      reply.header('Cache-Control', 'no-store');
      const result = await storefront.beacon(
        request.params.handle,
        request.params.id,
        request.ip,
        request.headers['user-agent'],
      );
      return reply.code(result === null ? 404 : 204).send();
    },
  );

  app.get(VIEW_BEACON_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.removeHeader('X-Svc-Api-Version');
    return (
      reply
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', SCRIPT_CACHE)
        // The page loads it with crossorigin (for its integrity check) from any host name it is read under.
        .header('Access-Control-Allow-Origin', '*')
        .type('text/javascript; charset=utf-8')
        .send(VIEW_BEACON_JS)
    );
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

  const listPage = async (request: FastifyRequest<ListRoute>, reply: FastifyReply) => {
    try {
      const before = request.query.before;
      if (before !== undefined && typeof before !== 'string') return notFound(reply);
      const { handle, id } = request.params;
      const page =
        id === undefined
          ? await storefront.indexPage(handle, before)
          : await storefront.categoryPage(handle, id, before);
      if (!page) return notFound(reply);
      return sendPublic(request, startPage(reply), ctx.config.publicCache, {
        body: page.html,
        lastModified: page.lastModified,
        ignoreModifiedSince: true,
      });
    } catch (err) {
      return failed(request, reply, err);
    }
  };
  app.get<ListRoute>('/s/:handle/blog', { schema: { hide: true } }, listPage);
  app.get<ListRoute>('/s/:handle/blog/categories/:id', { schema: { hide: true } }, listPage);

  // Anything else under /s/ is a page that does not exist, answered as a page.
  app.get('/s/*', { schema: { hide: true } }, async (_request, reply) => notFound(reply));
}
