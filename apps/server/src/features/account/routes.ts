import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAddressEditRequest,
  ZApiKeyResponse,
  ZCurrentPlanResponse,
  ZDeleteAccountRequest,
  ZEmailEditRequest,
  ZEmailEditResponse,
  ZEmailUpdateResponse,
  ZFreshchatUpdateRequest,
  ZLowCreditAlertResponse,
  ZLowCreditAlertUpdateRequest,
  ZMessageResponse,
  ZNameEditRequest,
  ZPasswordEditRequest,
  ZPhoneEditRequest,
  ZProfileResponse,
  ZProfileUpdateResponse,
  ZTimezoneEditRequest,
  ZTokenRequest,
  ZUpgradeRequest,
  ZUpgradeResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { rateLimitFor } from '../../platform/http/rate-limits';
import {
  changePassword,
  confirmEmailChange,
  deleteAccount,
  editProfileFields,
  generateApiKey,
  getCurrentPlan,
  getProfile,
  requestEmailChange,
  requestUpgrade,
  updateOrgLowCreditAlert,
  updateUserLowCreditAlert,
} from './service';

export function registerAccountRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: guards.requireAuth };
  const base = { tags: ['user'], security: [{ bearer: [] }] };

  r.get('/user/profile', { ...auth, schema: { ...base, summary: 'The user session / profile', response: withErrorResponses({ 200: ZProfileResponse }) } }, async (req) =>
    ok(await getProfile(deps.database.db, getCaller(req))),
  );
  r.post(
    '/user/email/edit',
    { ...auth, schema: { ...base, summary: 'Start an e-mail change (mails a confirmation to the new address)', body: ZEmailEditRequest, response: withErrorResponses({ 200: ZEmailEditResponse }) } },
    async (req) => ok(await requestEmailChange(deps, getCaller(req), req.body)),
  );
  r.post(
    '/user/email/update',
    {
      config: rateLimitFor(deps.config, 'auth'),
      schema: { tags: ['user'], summary: 'Apply an e-mail change with its token', body: ZTokenRequest, response: withErrorResponses({ 200: ZEmailUpdateResponse }) },
    },
    async (req) => ok(await confirmEmailChange(deps, req.body.token)),
  );
  r.post(
    '/user/phone/edit',
    { ...auth, schema: { ...base, summary: 'Edit the phone number', body: ZPhoneEditRequest, response: withErrorResponses({ 200: ZProfileUpdateResponse }) } },
    async (req) => ok(await editProfileFields(deps, getCaller(req), { phoneNumber: req.body.phone_number }, 'Changed the phone number')),
  );
  r.post(
    '/user/name/edit',
    { ...auth, schema: { ...base, summary: 'Edit the name', body: ZNameEditRequest, response: withErrorResponses({ 200: ZProfileUpdateResponse }) } },
    async (req) => ok(await editProfileFields(deps, getCaller(req), { name: req.body.name }, 'Changed the name')),
  );
  r.post(
    '/user/address/edit',
    { ...auth, schema: { ...base, summary: 'Edit the address', body: ZAddressEditRequest, response: withErrorResponses({ 200: ZProfileUpdateResponse }) } },
    async (req) => ok(await editProfileFields(deps, getCaller(req), { address: req.body.address }, 'Changed the address')),
  );
  r.post(
    '/user/timezone/edit',
    { ...auth, schema: { ...base, summary: 'Edit the time zone (IANA name)', body: ZTimezoneEditRequest, response: withErrorResponses({ 200: ZProfileUpdateResponse }) } },
    async (req) => ok(await editProfileFields(deps, getCaller(req), { timezone: req.body.timezone }, 'Changed the time zone')),
  );
  r.post(
    '/user/password/edit',
    { ...auth, schema: { ...base, summary: 'Change the password (current + new)', body: ZPasswordEditRequest, response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await changePassword(deps, getCaller(req), req.body)),
  );
  r.post(
    '/user/freshchat/update',
    { ...auth, schema: { ...base, summary: 'Store the chat restore id', body: ZFreshchatUpdateRequest, response: withErrorResponses({ 200: ZProfileUpdateResponse }) } },
    async (req) => ok(await editProfileFields(deps, getCaller(req), { restoreId: req.body.restore_id }, 'Updated the chat id')),
  );
  r.get(
    '/user/generateapikey',
    { ...auth, schema: { ...base, summary: 'Create or rotate the API key (shown once)', response: withErrorResponses({ 200: ZApiKeyResponse }) } },
    async (req) => ok(await generateApiKey(deps, getCaller(req))),
  );
  r.get(
    '/user/current_plan',
    { ...auth, schema: { ...base, summary: "The organisation's current plan", response: withErrorResponses({ 200: ZCurrentPlanResponse }) } },
    async (req) => ok(await getCurrentPlan(deps.database.db, getCaller(req))),
  );
  r.post(
    '/user/upgrade',
    {
      onRequest: guards.requireRole('owner', 'admin'),
      schema: { ...base, summary: 'Record a plan upgrade request', body: ZUpgradeRequest, response: withErrorResponses({ 200: ZUpgradeResponse }) },
    },
    async (req) => ok(await requestUpgrade(deps, getCaller(req), req.body)),
  );
  r.post(
    '/user/low_credit_alert/update',
    { ...auth, schema: { ...base, summary: "The user's low credit alert", body: ZLowCreditAlertUpdateRequest, response: withErrorResponses({ 200: ZLowCreditAlertResponse }) } },
    async (req) => ok(await updateUserLowCreditAlert(deps, getCaller(req), req.body)),
  );
  r.post(
    '/admin/low_credit_alert/update',
    {
      onRequest: guards.requireRole('owner', 'admin'),
      schema: { ...base, summary: "The organisation's low credit alert (owner, manager)", body: ZLowCreditAlertUpdateRequest, response: withErrorResponses({ 200: ZLowCreditAlertResponse }) },
    },
    async (req) => ok(await updateOrgLowCreditAlert(deps, getCaller(req), req.body)),
  );
  r.patch(
    '/user/account',
    { ...auth, schema: { ...base, summary: 'Delete the account', body: ZDeleteAccountRequest, response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await deleteAccount(deps, getCaller(req), req.body)),
  );
}
