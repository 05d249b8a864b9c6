import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZMessageResponse,
  ZOperatorIdParams,
  ZOperatorInviteRequest,
  ZOperatorInviteResponse,
  ZOperatorListResponse,
  ZOperatorLoginRequest,
  ZOperatorLoginResponse,
  ZOperatorMeResponse,
  ZOperatorSetPasswordRequest,
  ZOperatorStatusRequest,
  ZOperatorStatusResponse,
  ZOpsActionListResponse,
  ZOpsActionQuery,
} from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { opsSecretRoute } from '../../platform/auth/ops-secret';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { rateLimitFor } from '../../platform/http/rate-limits';
import { getOperator, type TOperatorGuard } from './guard';
import { createOperatorLink, inviteOperator, listOperators, logoutOperator, setOperatorPasswordWithLink } from './operator-auth';
import { listOperatorActions } from './operator-log';
import { loginOperator } from './operator-sign-in';
import { setOperatorStatus } from './operator-status';
import { OPS_COMMAND_ACTOR } from './record-action';

export const OPS_TAGS = ['ops'];
export const OPS_SECURITY = [{ bearer: [] }];

/** The console's own routes: operator sign-in, the operators, the operator-side log (under /api/v1/ops). */
export function registerOperatorRoutes(app: FastifyInstance, deps: TDeps, guard: TOperatorGuard) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = rateLimitFor(deps.config, 'auth');
  const tags = OPS_TAGS;
  const onRequest = guard.requireOperator;
  const security = OPS_SECURITY;
  r.post(
    '/ops/session/login',
    { config: limited, schema: { tags, summary: 'Operator sign-in', body: ZOperatorLoginRequest, response: withErrorResponses({ 200: ZOperatorLoginResponse }) } },
    async (req) => ok(await loginOperator(deps, req.body, { ip: req.ip })),
  );
  r.post(
    '/ops/session/set_password',
    {
      config: limited,
      schema: { tags, summary: "Set an operator's password with their one-time link (then signed in)", body: ZOperatorSetPasswordRequest, response: withErrorResponses({ 200: ZOperatorLoginResponse }) },
    },
    async (req) => ok(await setOperatorPasswordWithLink(deps, req.body, { ip: req.ip })),
  );
  // The ops command while the server runs (`npm run ops -- create-operator --email …`, `disable-operator <email>`,
  // `enable-operator <email>`): the caller proves it holds APP_SECRET (rate limited like a sign-in).
  r.post('/ops/create_operator', { ...opsSecretRoute(deps.config), schema: { hide: true, body: ZOperatorInviteRequest } }, async (req) =>
    ok(await createOperatorLink(deps, { ...req.body, invitedBy: null })),
  );
  r.post('/ops/operator_status', { ...opsSecretRoute(deps.config), schema: { hide: true, body: ZOperatorStatusRequest, response: withErrorResponses({ 200: ZOperatorStatusResponse }) } }, async (req) =>
    ok(await setOperatorStatus(deps, OPS_COMMAND_ACTOR, { email: req.body.email }, req.body.disabled)),
  );
  r.post(
    '/ops/session/logout',
    { onRequest, schema: { tags, summary: 'Operator sign-out', security, response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await logoutOperator(deps, getOperator(req))),
  );
  r.get('/ops/me', { onRequest, schema: { tags, summary: 'The signed-in operator', security, response: withErrorResponses({ 200: ZOperatorMeResponse }) } }, async (req) => {
    const me = getOperator(req);
    const { items } = await listOperators(deps);
    return ok(items.find((o) => o.id === me.operatorId)!);
  });
  r.get('/ops/operators', { onRequest, schema: { tags, summary: 'The operators', security, response: withErrorResponses({ 200: ZOperatorListResponse }) } }, async () =>
    ok(await listOperators(deps)),
  );
  r.post(
    '/ops/operators/invite',
    { onRequest, schema: { tags, summary: 'Invite an operator: a one-time link mailed to them (never answered here)', security, body: ZOperatorInviteRequest, response: withErrorResponses({ 200: ZOperatorInviteResponse }) } },
    async (req) => ok(await inviteOperator(deps, getOperator(req), req.body)),
  );
  for (const disabled of [true, false]) {
    r.post(
      `/ops/operators/:id/${disabled ? 'disable' : 'enable'}`,
      {
        onRequest,
        schema: {
          tags,
          security,
          summary: disabled ? 'Disable an operator: every session and pending link revoked (not yourself, not the last enabled one)' : 'Enable a disabled operator again',
          params: ZOperatorIdParams,
          response: withErrorResponses({ 200: ZOperatorStatusResponse }),
        },
      },
      async (req) => ok(await setOperatorStatus(deps, getOperator(req), { id: req.params.id }, disabled)),
    );
  }
  r.get(
    '/ops/actions',
    { onRequest, schema: { tags, summary: 'The operator-side log of operator actions', security, querystring: ZOpsActionQuery, response: withErrorResponses({ 200: ZOpsActionListResponse }) } },
    async (req) => ok(await listOperatorActions(deps, req.query)),
  );
}
