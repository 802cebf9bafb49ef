// buildApp(ctx): the Fastify instance with the pipeline and every module's routes; no listen().
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { ApiError } from './lib/api-error.js';
import { errorHandler, sendApiError } from './http/error-envelope.js';
import { registerIdempotency } from './http/idempotency-hook.js';
import { registerJsonBody } from './http/json-body.js';
import { lazyChildLoggerFactory, loggerOptions, registerAccessLog } from './http/logging.js';
import { registerOpenApi } from './http/openapi.js';
import { registerPipeline } from './http/pipeline.js';
import { requestIdFor } from './http/request-id.js';
import { schemaCompiler } from './http/validation.js';
import { registerAuditRoutes } from './http/routes/audit-routes.js';
import { registerCategoryRoutes } from './http/routes/category-routes.js';
import { registerPostRoutes } from './http/routes/post-routes.js';
import { registerIdentityRoutes } from './http/routes/identity-routes.js';
import { registerMediaFileRoutes } from './http/routes/media-file-routes.js';
import { registerMediaRoutes } from './http/routes/media-routes.js';
import { registerOpenApiRoute } from './http/routes/openapi-routes.js';
import { registerStorefrontRoutes } from './http/routes/storefront-routes.js';
import { registerDocsRoutes } from './http/routes/docs-routes.js';

export interface BuildAppOptions {
  /** Where logs go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  logLevel?: string;
}

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? ctx.config.logLevel, options.logStream),
    genReqId: requestIdFor,
    childLoggerFactory: lazyChildLoggerFactory,
    // One access line per request instead (registerAccessLog).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: ctx.config.maxJsonBodyBytes,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    return503OnClosing: false,
  });
  app.setValidatorCompiler(schemaCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => sendApiError(request, reply, new ApiError('not_found')));

  registerAccessLog(app);
  registerJsonBody(app, ctx.config.maxJsonBodyBytes);
  await registerOpenApi(app, ctx.config.publicBaseUrl);
  registerPipeline(app, ctx);
  registerIdempotency(app, ctx);

  registerIdentityRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  await registerMediaRoutes(app, ctx);
  registerMediaFileRoutes(app, ctx);
  registerPostRoutes(app, ctx);
  registerCategoryRoutes(app, ctx);
  registerOpenApiRoute(app);
  registerStorefrontRoutes(app, ctx);
  registerDocsRoutes(app);
  return app;
}
