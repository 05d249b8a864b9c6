import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZMessageResponse,
  ZOpsCreditAdjustmentRequest,
  ZOpsCreditAdjustmentResponse,
  ZOpsIdParams,
  ZOpsOrgDetailResponse,
  ZOpsOrgListsResponse,
  ZOpsOrgSearchQuery,
  ZOpsOrgSearchResponse,
  ZOpsOrgUserParams,
  ZOpsPricingUpdateRequest,
  ZOpsReasonRequest,
  ZSuccess,
} from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { adjustCredits } from './credits-service';
import { getOperator, type TOperatorGuard } from './guard';
import { openOrg, resetUserSessions, searchOrgs, setOrgSuspension, setUserSuspension } from './orgs-service';
import { getPricing, updatePricing } from './pricing-service';
import { OPS_SECURITY as security, OPS_TAGS as tags } from './routes';
import { viewOrgLists } from './support-access';

const ZPricingResponse = ZSuccess(z.record(z.string(), z.unknown()));
const ZPricingUpdateResponse = ZSuccess(z.object({ applied: z.record(z.string(), z.unknown()), config: z.record(z.string(), z.unknown()) }));

/** Organisations and users, credits, prices: the console's routes over customers (operator sessions only). */
export function registerOpsOrgRoutes(app: FastifyInstance, deps: TDeps, guard: TOperatorGuard) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const onRequest = guard.requireOperator;
  r.get(
    '/ops/orgs',
    { onRequest, schema: { tags, security, summary: 'Search organisations by name, member e-mail or domain', querystring: ZOpsOrgSearchQuery, response: withErrorResponses({ 200: ZOpsOrgSearchResponse }) } },
    async (req) => ok(await searchOrgs(deps, req.query)),
  );
  r.get(
    '/ops/orgs/:id',
    { onRequest, schema: { tags, security, summary: 'An organisation: plan, balance, members, activity counts', params: ZOpsIdParams, response: withErrorResponses({ 200: ZOpsOrgDetailResponse }) } },
    async (req) => ok(await openOrg(deps, req.params.id)),
  );
  r.get(
    '/ops/orgs/:id/lists',
    { onRequest, schema: { tags, security, summary: "The organisation's lists and result counts (only with the owner's support access)", params: ZOpsIdParams, response: withErrorResponses({ 200: ZOpsOrgListsResponse }) } },
    async (req) => ok(await viewOrgLists(deps, getOperator(req), req.params.id)),
  );
  r.post(
    '/ops/orgs/:id/credits',
    {
      onRequest,
      schema: { tags, security, summary: 'Grant or remove credits with a reason (idempotent by key)', params: ZOpsIdParams, body: ZOpsCreditAdjustmentRequest, response: withErrorResponses({ 200: ZOpsCreditAdjustmentResponse }) },
    },
    async (req) => ok(await adjustCredits(deps, getOperator(req), req.params.id, req.body)),
  );
  for (const suspended of [true, false]) {
    r.post(
      `/ops/orgs/:id/${suspended ? 'suspend' : 'restore'}`,
      { onRequest, schema: { tags, security, summary: suspended ? 'Suspend an organisation' : 'Restore an organisation', params: ZOpsIdParams, body: ZOpsReasonRequest, response: withErrorResponses({ 200: ZMessageResponse }) } },
      async (req) => ok(await setOrgSuspension(deps, getOperator(req), { orgId: req.params.id, suspended, reason: req.body?.reason })),
    );
    r.post(
      `/ops/orgs/:id/users/:userId/${suspended ? 'suspend' : 'restore'}`,
      { onRequest, schema: { tags, security, summary: suspended ? 'Suspend a user' : 'Restore a user', params: ZOpsOrgUserParams, body: ZOpsReasonRequest, response: withErrorResponses({ 200: ZMessageResponse }) } },
      async (req) => ok(await setUserSuspension(deps, getOperator(req), { orgId: req.params.id, userId: req.params.userId, suspended, reason: req.body?.reason })),
    );
  }
  r.post(
    '/ops/orgs/:id/users/:userId/reset_sessions',
    { onRequest, schema: { tags, security, summary: "Sign a user out everywhere", params: ZOpsOrgUserParams, response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await resetUserSessions(deps, getOperator(req), { orgId: req.params.id, userId: req.params.userId })),
  );
  r.get('/ops/pricing', { onRequest, schema: { tags, security, summary: 'The prices in force (the pricing file)', response: withErrorResponses({ 200: ZPricingResponse }) } }, async () =>
    ok(await getPricing(deps)),
  );
  r.put(
    '/ops/pricing',
    { onRequest, schema: { tags, security, summary: 'Apply an edited pricing file', body: ZOpsPricingUpdateRequest, response: withErrorResponses({ 200: ZPricingUpdateResponse }) } },
    async (req) => ok(await updatePricing(deps, getOperator(req), req.body.config)),
  );
}
