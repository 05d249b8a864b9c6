import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSupportAccessRequest, ZSupportAccessResponse } from '@verilead/contracts';
import { getCaller } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { getSupportAccess, setSupportAccess } from './support-access';

/** The owner's side of support access (customer sessions; the authorisation table lets owners only). */
export function registerSupportAccessRoutes(app: FastifyInstance, deps: TDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['settings'];
  const security = [{ bearer: [] }];
  r.get('/settings/support_access', { schema: { tags, security, summary: 'Whether Verilead support may see lists and results, and until when', response: withErrorResponses({ 200: ZSupportAccessResponse }) } }, async (req) =>
    ok(await getSupportAccess(deps, getCaller(req).orgId)),
  );
  r.post(
    '/settings/support_access',
    { schema: { tags, security, summary: 'Grant Verilead support access for a while', body: ZSupportAccessRequest, response: withErrorResponses({ 200: ZSupportAccessResponse }) } },
    async (req) => ok(await setSupportAccess(deps, getCaller(req), req.body.hours)),
  );
  r.delete('/settings/support_access', { schema: { tags, security, summary: 'End support access now', response: withErrorResponses({ 200: ZSupportAccessResponse }) } }, async (req) =>
    ok(await setSupportAccess(deps, getCaller(req), null)),
  );
}
