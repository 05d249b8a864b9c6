import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZListSyncQuery, ZListSyncRequest, ZListSyncResponse } from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { getListSync, setListSync } from './list-sync';

/** A verifier list imported from a platform: its automatic verification of new contacts. */
export function registerListSyncRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const base = { tags: ['integration'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/integration/list_sync',
    { ...auth, schema: { ...base, summary: 'The platform list a verifier list came from and its automatic verification of new contacts', querystring: ZListSyncQuery, response: withErrorResponses({ 200: ZListSyncResponse }) } },
    async (req) => ok(await getListSync(deps, getCaller(req), req.query.list_id)),
  );
  r.put(
    '/integration/list_sync',
    { ...auth, schema: { ...base, summary: 'Turn the automatic verification of new contacts on (cost per contact confirmed) or off', body: ZListSyncRequest, response: withErrorResponses({ 200: ZListSyncResponse }) } },
    async (req) => ok(await setListSync(deps, getCaller(req), req.body)),
  );
}
