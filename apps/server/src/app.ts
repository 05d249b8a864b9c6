import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createRedisClient } from './platform/cache/redis';
import { ANNOUNCEMENT_TS_HEADER, APP_VERSION, APP_VERSION_HEADER, PUBLIC_API_PREFIX } from '@verilead/contracts';
import { createGuards } from './platform/auth/guards';
import type { TDeps } from './platform/deps';
import { AppError } from './platform/errors/app-error';
import { buildFailure, registerErrorHandler } from './platform/errors/error-handler';
import { isVersionOutdated } from './platform/http/app-version';
import { findInvalidText, INVALID_TEXT_MESSAGE } from './platform/http/text-guard';
import { describeMultipartBody } from './platform/http/openapi-multipart';
import { registerRequestBaseUrl } from './platform/http/public-url';
import { completeRouteDocument } from './platform/http/openapi-responses';
import { registerAccountRoutes } from './features/account';
import { registerActivityRoutes } from './features/activity-log';
import { createAnnouncementClock, type TAnnouncementClock, registerAnnouncementOpsRoute, registerAnnouncementRoutes } from './features/announcements';
import { registerAuthRoutes } from './features/auth';
import { registerCreditRoutes } from './features/credits';
import { registerTeamRoutes } from './features/team';
import { registerAuthorization } from './platform/auth/authorize';
import { registerEmailVerifierRoutes } from './features/email-verifier';
import { registerEmailFinderRoutes } from './features/email-finder';
import { registerDownloadRoutes } from './features/downloads';
import { registerSettingsRoutes } from './features/settings';
import { registerPrivacyRoutes } from './features/privacy';
import { registerDeveloperRoutes, registerPublicApiRoutes, buildPublicFailure } from './features/developer';
import { registerFormGuardPublicRoutes, registerFormGuardRoutes } from './features/form-guard';
import { registerWebhookRoutes } from './features/webhooks';
import { registerIntegrationRoutes } from './features/integrations';
import { registerProspectRoutes } from './features/prospects';
import { registerSsoRoutes } from './features/sso';
import { registerPublicRoutes } from './features/public';
import { registerAnalyticsRoutes } from './features/analytics';
import { registerBillingRoutes } from './features/billing';
import { registerMcpRoutes } from './features/mcp';
import { createAppMetrics, registerOperationsRoutes } from './features/operations';
import { registerAuditRoutes } from './features/audit';
import { registerBounceRoutes } from './features/bounces';
import { createOperatorGuard, registerOpsConsoleRoutes } from './features/ops-console';
import { registerOpsInfraRoutes } from './features/ops-infra';

export const API_PREFIX = '/api/v1';

function isAppApiUrl(url: string): boolean {
  return /^\/api(\/|\?|$)/.test(url);
}

function isPublicApiUrl(url: string): boolean {
  return url === PUBLIC_API_PREFIX || url.startsWith(`${PUBLIC_API_PREFIX}/`) || url.startsWith(`${PUBLIC_API_PREFIX}?`);
}

export type TAppOptions = TDeps & {
  /** Serve the built SPA from config.webDistDir when it exists (default true). */
  serveWeb?: boolean;
  announcementClock?: TAnnouncementClock;
};

/** Builds the HTTP app: every route under /api/v1 with zod schemas, envelopes, guards, rate limits. */
export async function buildApp(opts: TAppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const { database, queue, mailer, storage, verifier, payments, standIns, clock } = opts;
  const deps: TDeps = { config, database, queue, mailer, storage, verifier, payments, standIns, clock };
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // One JSON line per request (written in onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    bodyLimit: 1_048_576,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Requests the router cannot even read (broken percent-encoding, an over-long path part) answer the JSON envelope.
    frameworkErrors: (error, request, reply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      const message = 'The address of this request is not valid (it holds broken characters or a part that is too long)';
      return (reply as unknown as FastifyReply).status(status).send(isPublicApiUrl(request.url) ? buildPublicFailure(null, message) : buildFailure('malformed_request', message));
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('caller', null);
  registerErrorHandler(app);
  // Without PUBLIC_URL, the links a request builds start with the address it was made to (platform/http/public-url.ts).
  registerRequestBaseUrl(app, config);
  // NUL characters and lone surrogates are refused in every path parameter, query and body (no database or mailer can hold them).
  app.addHook('preValidation', async (request) => {
    for (const [location, value] of [['params', request.params], ['query', request.query], ['body', request.body]] as const) {
      const field = findInvalidText(value);
      if (field) {
        const where = location === 'params' ? 'params' : location;
        throw new AppError('validation_failed', INVALID_TEXT_MESSAGE, { reasons: [{ field, location: where, messages: [INVALID_TEXT_MESSAGE] }] });
      }
    }
  });
  // Every route's method and pattern, so a known path called with the wrong method answers 405.
  const routePatterns: { methods: string[]; pattern: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const source = route.url
      .replace(/\/+$/, '')
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    routePatterns.push({ methods, pattern: new RegExp(`^${source}/?$`) });
  });

  // Security headers on every answer. Helmet's middleware is built once here: @fastify/helmet built it again on every
  // request (parsing the CSP each time, ~3 % of the server's CPU on the instant path).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined)));

  app.addHook('onClose', async () => {
    await deps.verifier.close(); // the process's engine: idle SMTP sessions, its Redis cache connection
  });
  const redis = config.redisUrl ? createRedisClient(config.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
  if (redis) {
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'vl-rl-', skipOnError: true } : {}),
    errorResponseBuilder: (_req, context) =>
      Object.assign(new Error(`Too many requests, please try again in ${context.after}`), { statusCode: 429 }),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Verilead API', version: APP_VERSION, description: 'Email verification, finding and data services.' },
      servers: [],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: (data) => {
      const out = jsonSchemaTransform(data);
      // Upload routes read their multipart body as a stream: document it here (file and fields).
      const multipart = describeMultipartBody(data.url);
      const schema = multipart ? { ...out.schema, body: multipart } : out.schema;
      // Non-JSON routes' media types and answers, and the answers every route can give (414, 415, 418…).
      const method = [data.route.method].flat()[0] ?? 'GET';
      return { ...out, schema: completeRouteDocument(data.url, String(method), schema as Parameters<typeof completeRouteDocument>[2]) };
    },
  });

  const announcementClock = opts.announcementClock ?? createAnnouncementClock(deps.database.db);

  // The app-version check: an announced version below the minimum gets 418 with the update code.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(API_PREFIX)) return;
    const header = request.headers[APP_VERSION_HEADER];
    const version = Array.isArray(header) ? header[0] : header;
    if (isVersionOutdated(version, config.minAppVersion)) {
      return reply
        .status(418)
        .send(
          buildFailure('app_version_outdated', 'A new version of Verilead is available. Please update to continue.', {
            additional_info: { update_code: config.appUpdateCode, min_version: config.minAppVersion },
          }),
        );
    }
  });

  // Every response carries the current announcement timestamp.
  app.addHook('onSend', async (_request, reply, payload) => {
    try {
      reply.header(ANNOUNCEMENT_TS_HEADER, String(await announcementClock.read()));
    } catch {
      reply.header(ANNOUNCEMENT_TS_HEADER, '0');
    }
    return payload;
  });

  // Request latency for /metrics, by route pattern (`/api/v1/lists/:id`), never the raw URL; only counted (and the
  // process metrics collected) where /metrics answers, i.e. with METRICS_TOKEN set.
  const metrics = deps.config.metricsToken ? createAppMetrics(deps.database) : null;
  app.addHook('onResponse', async (request, reply) => {
    metrics?.observeRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime), user: request.caller?.userId },
      'request',
    );
  });

  // /health/live, /health/ready and /metrics (features/operations, docs/operations.md).
  registerOperationsRoutes(app, deps, metrics, redis);

  const guards = createGuards(deps.database);
  // The authorisation table (contracts/authorization.ts) checked for every API route; fail closed.
  // Operator routes (`operator` in the table) are authenticated there too, with the operator console's guard.
  registerAuthorization(app, deps.database.db, { authenticateOperator: createOperatorGuard(deps.database).authenticate });
  await app.register(
    async (api) => {
      registerAuthRoutes(api, deps, guards);
      registerAccountRoutes(api, deps, guards);
      registerActivityRoutes(api, deps, guards);
      registerCreditRoutes(api, deps, guards);
      registerTeamRoutes(api, deps, guards);
      registerEmailVerifierRoutes(api, deps, guards);
      registerEmailFinderRoutes(api, deps, guards);
      registerDownloadRoutes(api, deps, guards);
      registerSettingsRoutes(api, deps, guards);
      registerPrivacyRoutes(api, deps, guards);
      registerDeveloperRoutes(api, deps, guards);
      registerWebhookRoutes(api, deps, guards);
      registerFormGuardRoutes(api, deps, guards);
      registerIntegrationRoutes(api, deps, guards);
      registerProspectRoutes(api, deps, guards);
      registerAnalyticsRoutes(api, deps, guards);
      registerBillingRoutes(api, deps, guards);
      registerAnnouncementRoutes(api, deps, guards);
      registerSsoRoutes(api, deps, guards);
      registerAuditRoutes(api, deps, guards);
      registerBounceRoutes(api, deps, guards);
      // The operator console (operator sessions only; its own guard): features/ops-console, docs/ops-console.md.
      registerOpsConsoleRoutes(api, deps);
      registerOpsInfraRoutes(api, deps);
      registerPublicRoutes(api, deps, guards);
      registerAnnouncementOpsRoute(api, deps, () => announcementClock.invalidate());
      api.withTypeProvider<ZodTypeProvider>().get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: API_PREFIX },
  );
  // The Clearout-compatible public API (app tokens) under /v2.
  // Its rate limits use the @fastify/rate-limit registration above: with REDIS_URL every API process counts an app's
  // calls in one place (one limit, not one per process).
  await registerPublicApiRoutes(app, deps);
  // The form guard widget's calls (/v2/form_guard, client tokens) and the built script.
  await registerFormGuardPublicRoutes(app, deps);
  // The MCP server (/mcp, streamable HTTP) for AI assistants and agents: the same app tokens and services as /v2.
  await registerMcpRoutes(app, deps);

  const webDist = config.webDistDir;
  const serveWeb = (opts.serveWeb ?? true) && existsSync(join(webDist, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz beside each file; clients get the smallest they accept.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', cacheControlFor(filePath)),
    });
  }

  // The SPA answers GETs outside the APIs; under /api and /v2 an unknown path is a JSON 404 and a wrong method a JSON 405.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const api = isAppApiUrl(path) || isPublicApiUrl(path);
    if (serveWeb && request.method === 'GET' && !api) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    const allowed = [...new Set(routePatterns.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))].filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    const shown = path.slice(0, 200);
    if (api && allowed.length > 0) {
      const message = `${request.method} is not allowed on ${shown}; use ${allowed.join(' or ')}`;
      reply.header('allow', allowed.join(', '));
      return reply.status(405).send(isPublicApiUrl(path) ? buildPublicFailure(null, message) : buildFailure('method_not_allowed', message));
    }
    const message = `No route ${request.method} ${shown}`;
    return reply.status(404).send(isPublicApiUrl(path) ? buildPublicFailure(null, message) : buildFailure('route_not_found', message));
  });

  return app;
}

/** Hashed build assets never change under their name; everything else (index.html) is revalidated on every load. */
export function cacheControlFor(filePath: string): string {
  return /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.(br|gz))?$/.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}
