import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  FORM_GUARD_API_PREFIX,
  FORM_GUARD_SCRIPT_PATH,
  ZFormGuardConfigQuery,
  ZFormGuardValidateRequest,
  ZJsWidgetUsageRequest,
  ZJsWidgetUsageResponse,
} from '@verilead/contracts';
import { REPO_ROOT } from '../../config';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { FormGuardError, authenticateGuard, getJsWidgetUsage, getWidgetConfig, validateField } from './service';

/** Where `npm run build -w @verilead/form-guard` writes the widget. */
export const FORM_GUARD_BUILD_PATH = join(REPO_ROOT, 'packages', 'form-guard', 'dist', 'form-guard.js');

/**
 * POST /form_guard/usage (under /api/v1): the organisation's form guard checks by field, refusals, day and guard (the
 * Form Guard screen). The spec's POST /reports/js_widget_usage is the analytics report over the ledger.
 */
export function registerFormGuardRoutes(api: FastifyInstance, deps: TDeps, guards: TGuards) {
  api.withTypeProvider<ZodTypeProvider>().post(
    '/form_guard/usage',
    {
      onRequest: guards.requireAuth,
      schema: {
        tags: ['reports'],
        security: [{ bearer: [] }],
        summary: 'Form guard usage: checks by field type, refused, billable credits, by day and by guard',
        body: ZJsWidgetUsageRequest,
        response: withErrorResponses({ 200: ZJsWidgetUsageResponse }),
      },
    },
    async (req) => ok(await getJsWidgetUsage(deps.database.db, getCaller(req), req.body)),
  );
}

function failure(reply: FastifyReply, status: number, code: number | null, message: string) {
  return reply.status(status).send({ status: 'failed', error: { ...(code === null ? {} : { code }), message } });
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw new FormGuardError(400, 0, parsed.error.issues[0]?.message ?? 'The request is not valid');
}

/**
 * The widget's calls under /v2/form_guard (client token, origin and page checked, CORS for the app's origins only)
 * and the built widget at /form-guard.js (loadable from any site).
 */
export async function registerFormGuardPublicRoutes(app: FastifyInstance, deps: TDeps, opts: { scriptPath?: string } = {}) {
  const db = deps.database.db;
  const { verifier } = deps;
  const scriptPath = opts.scriptPath ?? FORM_GUARD_BUILD_PATH;
  let script: string | null = null;

  app.get(FORM_GUARD_SCRIPT_PATH, { schema: { hide: true } }, async (_req, reply) => {
    script ??= await readFile(scriptPath, 'utf8').catch(() => null);
    if (script === null) return failure(reply, 503, null, 'The form guard widget is not built; run npm run build -w @verilead/form-guard');
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=300')
      .send(script);
  });

  await app.register(
    async (fg) => {
      fg.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true };
      });
      fg.setErrorHandler((err: unknown, req, reply) => {
        if (err instanceof FormGuardError) {
          if (err.retryAfterSeconds !== null) reply.header('retry-after', String(err.retryAfterSeconds));
          return failure(reply, err.httpStatus, err.code || null, err.message);
        }
        const status = (err as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500) return failure(reply, 400, null, 'The request is not valid');
        req.log.error({ err }, 'form guard error');
        return failure(reply, 503, null, 'Service unavailable, please try again shortly');
      });

      // Preflight (OPTIONS) is the public API's: any origin may ask; the real call is then checked against the app's origins.
      async function guardOf(req: FastifyRequest, reply: FastifyReply, pageUrl: string | undefined) {
        const token = /^Bearer\s+(\S+)$/i.exec((req.headers.authorization ?? '').trim())?.[1] ?? '';
        const guard = await authenticateGuard(db, token, req.headers.origin, pageUrl);
        // CORS for this app's origins only: a refused origin gets no Access-Control-Allow-Origin.
        reply.header('access-control-allow-origin', guard.origin).header('vary', 'Origin');
        return guard;
      }

      fg.get('/config', async (req, reply) => {
        const q = parse(ZFormGuardConfigQuery, req.query);
        const guard = await guardOf(req, reply, q.page_url);
        return { status: 'success', data: getWidgetConfig(guard) };
      });

      fg.post('/validate', async (req, reply) => {
        const body = parse(ZFormGuardValidateRequest, req.body);
        const guard = await guardOf(req, reply, body.page_url);
        const data = await validateField(deps.database, verifier, guard, body, { ip: req.ip, signal: AbortSignal.timeout(60_000) });
        return { status: 'success', data };
      });
    },
    { prefix: FORM_GUARD_API_PREFIX },
  );
}
