import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { parse as parseYaml } from 'yaml';
import { BULK_FILE_SIZE_LIMIT_BYTES, FORM_GUARD_API_PREFIX, PUBLIC_API_PREFIX } from '@verilead/contracts';
import { SERVER_ROOT } from '../../config';
import type { TDeps } from '../../platform/deps';
import { isAppError } from '../../platform/errors/app-error';
import { httpStatusOf } from '../../platform/errors/http-status';
import { isDatabaseUnavailable } from '../../platform/errors/error-handler';
import { RequestClosedError } from '../../platform/http/request-closed';
import { buildPublicFailure, buildValidationFailure } from './public-api-format';
import { publicRateLimit, registerPublicApiAuth } from './public-api/auth';
import { PublicApiError } from './public-api/errors';
import { registerPublicFinderRoutes } from './public-api/finder-routes';
import { registerPublicListRoutes } from './public-api/list-routes';
import { registerPublicVerifyRoutes } from './public-api/verify-routes';
import { getPublicBaseUrl } from '../../platform/http/public-url';

export { FINDER_ERROR_CODES } from './public-api/errors';

/** The reference document (a copy of spec/reference/clearout-public-api-v2.openapi.yaml), served at /v2/openapi.json. */
export const REFERENCE_DOCUMENT_PATH = join(SERVER_ROOT, 'src', 'features', 'developer', 'public-api-v2.openapi.yaml');

/** The reference document as JSON, its server pointed at this server's /v2. */
export function loadPublicApiDocument(publicUrl: string): Record<string, unknown> {
  return withServer(parseYaml(readFileSync(REFERENCE_DOCUMENT_PATH, 'utf8')) as Record<string, unknown>, publicUrl);
}

const withServer = (doc: Record<string, unknown>, publicUrl: string) => ({ ...doc, servers: [{ url: `${publicUrl}${PUBLIC_API_PREFIX}` }] });

export type TPublicApiOptions = { waitLimitMs?: number };

/**
 * The Clearout-compatible public API under /v2: one authentication path (public-api/auth.ts: the token resolved once
 * per request), per-app rate limits through @fastify/rate-limit (Redis store with REDIS_URL), and thin routes per use
 * case (public-api/*-routes.ts) over services (instant-service, list-service and the product's features).
 */
export async function registerPublicApiRoutes(app: FastifyInstance, deps: TDeps, opts: TPublicApiOptions = {}) {
  const { config } = deps;
  const { storage, verifier } = deps;
  let documentCache: Record<string, unknown> | null = null; // read once; its server follows the base URL of each request

  await app.register(
    async (v2) => {
      // The public API has its own document (/v2/openapi.json): keep its routes out of the app API's.
      v2.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true };
      });
      await v2.register(multipart, { limits: { fileSize: BULK_FILE_SIZE_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 10_000, parts: 12 } });

      v2.setErrorHandler((err: unknown, req, reply) => {
        if (err instanceof PublicApiError) return reply.status(err.httpStatus).send(err.body);
        if (err instanceof RequestClosedError) return reply.status(err.statusCode).send(buildPublicFailure(null, err.message));
        // Input refused by the shared checks (e.g. NUL characters or broken Unicode): the reference's validation failure.
        const appStatus = isAppError(err) ? httpStatusOf(err) : 0;
        if (isAppError(err) && appStatus >= 400 && appStatus < 500) {
          const reason = err.extra.reasons?.[0];
          const location = reason?.location === 'query' ? 'query' : 'body';
          if (appStatus === 400) return reply.status(400).send(buildValidationFailure([{ field: reason?.field ?? 'body', location, message: err.message, type: 'any.invalid' }]));
          return reply.status(appStatus).send(buildPublicFailure(null, err.message));
        }
        const status = (err as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500) {
          return reply.status(400).send(buildValidationFailure([{ field: 'body', location: 'body', message: (err as Error).message, type: 'any.invalid' }]));
        }
        req.log.error({ err }, 'public api error');
        if (isDatabaseUnavailable(err)) reply.header('retry-after', '5');
        return reply.status(503).send(buildPublicFailure(null, 'Service unavailable, please try again shortly'));
      });

      registerPublicApiAuth(v2, deps);

      // CORS preflight: only the form guard's routes are called from browsers (their real calls are then checked against
      // the guard's origins); the rest of /v2 is for servers and answers preflights without letting any origin in.
      v2.options('/*', async (req, reply) => {
        const origin = req.headers.origin;
        if (origin && req.url.startsWith(`${FORM_GUARD_API_PREFIX}/`)) reply.header('Access-Control-Allow-Origin', origin).header('Vary', 'Origin');
        return reply
          .header('Access-Control-Allow-Methods', 'GET, POST')
          .header('Access-Control-Allow-Headers', 'authorization, content-type')
          .header('Access-Control-Max-Age', '600')
          .status(204)
          .send();
      });

      // The document is public: counted per IP.
      v2.get('/openapi.json', { config: { rateLimit: publicRateLimit(deps) } }, async () =>
        withServer((documentCache ??= loadPublicApiDocument('')), getPublicBaseUrl(config)),
      );

      registerPublicVerifyRoutes(v2, deps, verifier);
      registerPublicListRoutes(v2, deps, storage, opts);
      registerPublicFinderRoutes(v2, deps, verifier, storage, opts);
    },
    { prefix: PUBLIC_API_PREFIX },
  );
}
