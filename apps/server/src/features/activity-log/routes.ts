import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZActivitiesRequest, ZActivitiesResponse } from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { listActivityLog } from './service';

export function registerActivityRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/user/activities',
    {
      onRequest: guards.requireAuth,
      schema: {
        tags: ['user'],
        summary: "A page of the user's activity log",
        security: [{ bearer: [] }],
        body: ZActivitiesRequest,
        response: withErrorResponses({ 200: ZActivitiesResponse }),
      },
    },
    async (req) => ok(await listActivityLog(deps.database.db, getCaller(req), req.body)),
  );
}
