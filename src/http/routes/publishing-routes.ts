// Feeds, sitemaps and robots.txt: GET/HEAD /s/<handle>/blog/feed.xml (Atom), rss.xml (RSS 2.0),
// feed.json (JSON Feed), /s/<handle>/sitemap.xml (and its parts sitemap-<n>.xml above the
// per-file limit), /robots.txt, /favicon.ico (empty). Cached like the pages (public-cache.ts); hidden from the OpenAPI
// description. See docs/publishing.md.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { FeedFormat, PublishedDocument } from '../../modules/storefront/index.js';
import { sendPublic } from '../public-cache.js';

const FEED_ROUTES: Array<[string, FeedFormat]> = [
  ['/s/:handle/blog/feed.xml', 'atom'],
  ['/s/:handle/blog/rss.xml', 'rss'],
  ['/s/:handle/blog/feed.json', 'json'],
];

type HandleRoute = { Params: { handle: string } };

export function registerPublishingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const publishing = ctx.publishing;
  const send = (request: FastifyRequest, reply: FastifyReply, doc: PublishedDocument | null) => {
    reply.removeHeader('X-Svc-Api-Version');
    if (!doc)
      return reply.code(404).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('Not Found\n');
    reply.header('X-Content-Type-Options', 'nosniff').type(doc.contentType);
    return sendPublic(request, reply, ctx.config.publicCache, {
      body: doc.body,
      lastModified: doc.lastModified,
      // A post leaving the list (deleted) leaves no newer time behind; the ETag sees it.
      ignoreModifiedSince: true,
    });
  };

  for (const [path, format] of FEED_ROUTES)
    app.get<HandleRoute>(path, { schema: { hide: true } }, async (request, reply) =>
      send(request, reply, await publishing.feed(request.params.handle, format)),
    );

  app.get<HandleRoute>('/s/:handle/sitemap.xml', { schema: { hide: true } }, async (request, reply) =>
    send(request, reply, await publishing.sitemap(request.params.handle)),
  );
  app.get<{ Params: { handle: string; part: string } }>(
    '/s/:handle/sitemap-:part.xml',
    { schema: { hide: true } },
    async (request, reply) =>
      send(request, reply, await publishing.sitemap(request.params.handle, request.params.part)),
  );

  // Browsers ask every host for /favicon.ico; the service has no icon of its own, and a 404
  // would be an error in every page's console.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => {
    reply.removeHeader('X-Svc-Api-Version');
    return reply.code(204).header('Cache-Control', 'public, max-age=86400').send();
  });

  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
    reply.removeHeader('X-Svc-Api-Version');
    reply.type('text/plain; charset=utf-8');
    return sendPublic(request, reply, ctx.config.publicCache, { body: await publishing.robots() });
  });
}
