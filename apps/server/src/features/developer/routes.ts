import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAppCreateRequest, ZAppIdParams, ZAppListQuery, ZAppListResponse, ZAppResponse, ZAppUpdateRequest, ZDefaultAppResponse } from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { createApp, createDefaultApp, getApp, getDefaultApp, listApps, updateAppSettings } from './service';

/** Apps: developer API tokens with their limits (under /api/v1). */
export function registerDeveloperRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const db = deps.database.db;
  const base = { tags: ['apps'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/apps/create',
    { ...auth, schema: { ...base, summary: 'Create an app; its token is answered once', body: ZAppCreateRequest, response: withErrorResponses({ 200: ZAppResponse }) } },
    async (req) => ok(await createApp(db, getCaller(req), req.body)),
  );
  r.post(
    '/apps/update',
    {
      ...auth,
      schema: { ...base, summary: 'Change an app (name, limits, origins, status) or rotate its token', body: ZAppUpdateRequest, response: withErrorResponses({ 200: ZAppResponse }) },
    },
    async (req) => ok(await updateAppSettings(db, getCaller(req), req.body)),
  );
  r.get(
    '/apps/list',
    { ...auth, schema: { ...base, summary: "The organisation's apps (removed ones only when asked by status)", querystring: ZAppListQuery, response: withErrorResponses({ 200: ZAppListResponse }) } },
    async (req) => ok(await listApps(db, getCaller(req), req.query)),
  );
  r.get(
    '/apps/default',
    { ...auth, schema: { ...base, summary: "The caller's default app, or null before they create it", response: withErrorResponses({ 200: ZDefaultAppResponse }) } },
    async (req) => ok(await getDefaultApp(db, getCaller(req))),
  );
  r.post(
    '/apps/default',
    { ...auth, schema: { ...base, summary: "Creates the caller's default app (its token shown once); an existing one is answered as it is", response: withErrorResponses({ 200: ZAppResponse }) } },
    async (req) => ok(await createDefaultApp(db, getCaller(req))),
  );
  r.get(
    '/apps/:id',
    { ...auth, schema: { ...base, summary: 'One app', params: ZAppIdParams, response: withErrorResponses({ 200: ZAppResponse }) } },
    async (req) => ok(await getApp(db, getCaller(req), req.params.id)),
  );
}
