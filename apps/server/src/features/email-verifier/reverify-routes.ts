import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZFailure, ZKeepVerifiedQuery, ZKeepVerifiedRequest, ZKeepVerifiedResponse, ZReverifyChangesQuery, ZReverifyChangesResponse } from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { getKeepVerified, listRunChanges, setKeepVerified } from './reverify-schedule';

/** Lists that stay verified: the schedule with its cost per run, its runs, and the rows a run changed. */
export function registerReverifyRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const base = { tags: ['email_verify'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/email_verify/list/keep_verified',
    {
      ...auth,
      schema: { ...base, summary: "A list's re-verification schedule, its cost per run (of a choice, with schedule / age_days) and its runs", querystring: ZKeepVerifiedQuery, response: withErrorResponses({ 200: ZKeepVerifiedResponse }) },
    },
    async (req) => ok(await getKeepVerified(deps, getCaller(req), req.query)),
  );
  r.put(
    '/email_verify/list/keep_verified',
    {
      ...auth,
      schema: { ...base, summary: 'Turn a list\'s re-verification schedule on (with the cost per run confirmed), change it or turn it off', body: ZKeepVerifiedRequest, response: { ...withErrorResponses({ 200: ZKeepVerifiedResponse }), 409: ZFailure } },
    },
    async (req) => ok(await setKeepVerified(deps, getCaller(req), req.body)),
  );
  r.get(
    '/email_verify/list/keep_verified/changes',
    { ...auth, schema: { ...base, summary: 'The rows a run changed (all=true: every row it re-checked), paged', querystring: ZReverifyChangesQuery, response: withErrorResponses({ 200: ZReverifyChangesResponse }) } },
    async (req) => ok(await listRunChanges(deps.database, getCaller(req), req.query)),
  );
}
