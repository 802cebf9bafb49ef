// buildApp(ctx): the Fastify instance with the pipeline and every module's routes; no listen().
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppContext } from './context.js';
import { trustProxyOption } from './config/trust-proxy.js';
import { ApiError } from './lib/api-error.js';
import { errorHandler, sendApiError } from './http/error-envelope.js';
import { clientErrorHandler, frameworkErrorHandler } from './http/framework-errors.js';
import { registerIdempotency } from './http/idempotency-hook.js';
import { registerJsonBody } from './http/json-body.js';
import { lazyChildLoggerFactory, loggerOptions, registerAccessLog } from './http/logging.js';
import { registerOpenApi } from './http/openapi.js';
import { registerPipeline } from './http/pipeline.js';
import { registerUnexpectedInputGuard } from './http/unexpected-input.js';
import { parseQueryString } from './http/query-string.js';
import { requestIdFor } from './http/request-id.js';
import { schemaCompiler } from './http/validation.js';
import { registerAuditRoutes } from './http/routes/audit-routes.js';
import { registerEventRoutes } from './http/routes/event-routes.js';
import { registerCategoryRoutes } from './http/routes/category-routes.js';
import { registerPostRoutes } from './http/routes/post-routes.js';
import { registerContentRoutes } from './http/routes/content-routes.js';
import { registerPreviewLinkRoutes } from './http/routes/preview-link-routes.js';
import { registerIdentityRoutes } from './http/routes/identity-routes.js';
import { registerMediaFileRoutes } from './http/routes/media-file-routes.js';
import { registerMediaRoutes } from './http/routes/media-routes.js';
import { registerOpenApiRoute } from './http/routes/openapi-routes.js';
import { registerStorefrontRoutes } from './http/routes/storefront-routes.js';
import { registerPublishingRoutes } from './http/routes/publishing-routes.js';
import { registerDocsRoutes } from './http/routes/docs-routes.js';
import { ConnectionGuard, requestWhole, sweepIntervalFor } from './http/connection-guard.js';
import { registerMetrics } from './http/metrics.js';
import { registerRouteOf } from './http/route-of.js';
import { LingerAllowance } from './http/linger-allowance.js';
import { ShutdownFlag } from './http/readiness.js';
import { registerHealthRoutes } from './http/routes/health-routes.js';
import { IMAGE_BYTES_CEILING } from './http/routes/media-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Turned on when shutdown begins: /readyz answers 503 and answers close their connection. */
    shutdownFlag: ShutdownFlag;
    /** Limits on slow and idle clients of the listening server (not used by inject()). */
    connectionGuard: ConnectionGuard;
  }
}
import { registerWebhookRoutes } from './http/routes/webhook-routes.js';
import { registerWebhookRecoveryRoutes } from './http/routes/webhook-recovery-routes.js';

export interface BuildAppOptions {
  /** Where logs go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  logLevel?: string;
}

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { ops } = ctx.config;
  // A multipart body carries the largest image allowed plus its part headers and boundaries.
  const guard = new ConnectionGuard(ops, sweepIntervalFor(ops), {
    json: ctx.config.maxJsonBodyBytes,
    multipart: IMAGE_BYTES_CEILING + 64 * 1024,
  });
  const app = Fastify({
    serverFactory: (handler) => guard.createServer(handler),
    logger: loggerOptions(options.logLevel ?? ctx.config.logLevel, options.logStream),
    genReqId: requestIdFor,
    // request.ip: from X-Forwarded-For only as far as TRUST_PROXY trusts (src/config/trust-proxy.ts).
    trustProxy: trustProxyOption(ops.trustProxy),
    childLoggerFactory: lazyChildLoggerFactory,
    // One access line per request instead (registerAccessLog).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: ctx.config.maxJsonBodyBytes,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200, querystringParser: parseQueryString },
    return503OnClosing: false,
    frameworkErrors: (err, request, reply) => {
      frameworkErrorHandler(err, request as FastifyRequest, reply as FastifyReply);
    },
    clientErrorHandler,
  });
  const shutdownFlag = new ShutdownFlag();
  app.decorate('shutdownFlag', shutdownFlag);
  app.decorate('connectionGuard', guard);
  // Close the connection after answers sent once shutdown has begun (keep-alive must not hold
  // the listener open past the last in-flight request) and after answers sent before their
  // request's body arrived (a refusal: the rest of the body is read and dropped for a bounded
  // time and size so the client, still sending, can read the answer; connection-guard.ts).
  // Hooks on every request are callback-style, not async: an async hook costs a promise and a
  // turn of the microtask queue per request, which showed in a cached read's profile.
  // A key's refusals linger a bounded number of times a minute (linger-allowance.ts).
  const lingering = new LingerAllowance();
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!requestWhole(request.raw)) {
      reply.header('Connection', 'close');
      const caller = request.caller;
      if (!caller || lingering.take(caller.keyId, ctx.clock.now().getTime())) guard.lingerAfterAnswer(request.raw);
      else guard.closeAfterAnswer(request.raw);
    } else if (shutdownFlag.shuttingDown) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.setValidatorCompiler(schemaCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => sendApiError(request, reply, new ApiError('not_found')));

  registerRouteOf(app);
  registerAccessLog(app);
  registerJsonBody(app, ctx.config.maxJsonBodyBytes);
  await registerOpenApi(app, ctx.config.publicBaseUrl);
  registerMetrics(app, ctx, guard);
  registerHealthRoutes(app, ctx, shutdownFlag);
  registerPipeline(app, ctx);
  registerUnexpectedInputGuard(app);
  registerIdempotency(app, ctx);

  registerIdentityRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerEventRoutes(app, ctx);
  await registerMediaRoutes(app, ctx);
  registerMediaFileRoutes(app, ctx);
  registerPostRoutes(app, ctx);
  registerPreviewLinkRoutes(app, ctx);
  registerCategoryRoutes(app, ctx);
  registerContentRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerWebhookRecoveryRoutes(app, ctx);
  registerOpenApiRoute(app);
  registerStorefrontRoutes(app, ctx);
  registerPublishingRoutes(app, ctx);
  registerDocsRoutes(app);
  return app;
}
