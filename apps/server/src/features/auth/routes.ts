import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZActivateRequest,
  ZActivateResponse,
  ZForgotPasswordRequest,
  ZInstanceResponse,
  ZLoginRequest,
  ZLoginResponse,
  ZMessageResponse,
  ZPasswordSetupRequest,
  ZResetPasswordRequest,
  ZSignupRequest,
  ZSignupResponse,
  ZVerifyTokenRequest,
  ZVerifyTokenResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import { opsSecretRoute } from '../../platform/auth/ops-secret';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { rateLimitFor } from '../../platform/http/rate-limits';
import { readInstanceInfo } from './instance';
import { createOwnerAccount, ZCreateOwnerInput } from './create-owner';
import { activate, forgotPassword, login, logout, resendVerification, resetPassword, setupPassword, signup, verifyToken } from './service';

export function registerAuthRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = rateLimitFor(deps.config, 'auth');
  const tags = ['user'];

  r.post(
    '/user/signup',
    { config: limited, schema: { tags, summary: 'Sign up: creates an organisation with the user as owner', body: ZSignupRequest, response: withErrorResponses({ 200: ZSignupResponse }) } },
    async (req) => ok(await signup(deps, req.body)),
  );
  r.post(
    '/user/activate',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Verify the e-mail address with the mailed token (with the sign-up browser\'s key: and sign that browser in, once)',
        body: ZActivateRequest,
        response: withErrorResponses({ 200: ZActivateResponse }),
      },
    },
    async (req) => ok(await activate(deps, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] })),
  );
  r.post(
    '/user/verify_token',
    { config: limited, schema: { tags, summary: 'Check a mailed token without using it', body: ZVerifyTokenRequest, response: withErrorResponses({ 200: ZVerifyTokenResponse }) } },
    async (req) => ok(await verifyToken(deps, req.body)),
  );
  r.post(
    '/user/login',
    { config: limited, schema: { tags, summary: 'Log in with e-mail and password', body: ZLoginRequest, response: withErrorResponses({ 200: ZLoginResponse }) } },
    async (req) => ok(await login(deps, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] })),
  );
  r.get(
    '/user/logout',
    { onRequest: guards.requireAuth, schema: { tags, summary: 'Log out: revokes the token', security: [{ bearer: [] }], response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await logout(deps, getCaller(req))),
  );
  r.post(
    '/user/resend_verification',
    { onRequest: guards.requireAuth, schema: { tags, summary: "Mail a new link to verify the caller's address", security: [{ bearer: [] }], response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await resendVerification(deps, getCaller(req))),
  );
  r.post(
    '/user/forgot-password',
    { config: limited, schema: { tags, summary: 'Mail a password reset link', body: ZForgotPasswordRequest, response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await forgotPassword(deps, req.body.email)),
  );
  r.post(
    '/user/reset-password',
    {
      config: limited,
      schema: { tags, summary: 'Set a new password with a reset or expired-password token', body: ZResetPasswordRequest, response: withErrorResponses({ 200: ZMessageResponse }) },
    },
    async (req) => ok(await resetPassword(deps, req.body)),
  );
  r.get(
    '/public/instance',
    {
      config: rateLimitFor(deps.config, 'public'),
      schema: { tags, summary: "What the sign-in pages show: the quick start's demo notice and its accounts", response: withErrorResponses({ 200: ZInstanceResponse }) },
    },
    async () => ok(await readInstanceInfo(deps.database, deps.config)),
  );
  // Operator command (`npm run ops -- create-owner --email … --org …`): the caller proves it holds APP_SECRET.
  r.post('/ops/create_owner', { ...opsSecretRoute(deps.config), schema: { hide: true, body: ZCreateOwnerInput } }, async (req) => ok(await createOwnerAccount(deps, req.body)));
  r.post(
    '/user/password/setup',
    { config: limited, schema: { tags, summary: 'Invited member sets the first password', body: ZPasswordSetupRequest, response: withErrorResponses({ 200: ZMessageResponse }) } },
    async (req) => ok(await setupPassword(deps, req.body)),
  );
}
