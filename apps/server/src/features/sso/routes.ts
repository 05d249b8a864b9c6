import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZLoginResponse,
  ZOnetoolTokenRequest,
  ZOnetoolVerifyResponse,
  ZSsoActivateRequest,
  ZSsoConfigQuery,
  ZSsoConfigResponse,
  ZSsoDomainClaimResponse,
  ZSsoDomainVerifyRequest,
  ZSsoProviderParams,
  ZSsoSigninRequest,
  ZSsoSocialStartRequest,
  ZSsoStartResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import { opsSecretRoute } from '../../platform/auth/ops-secret';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { rateLimitFor } from '../../platform/http/rate-limits';
import { verifySsoDomain } from './domain-claims';
import {
  consumeSamlResponse,
  finishSignin,
  getSamlMetadata,
  getSsoConfig,
  issueOnetoolToken,
  loginWithOnetoolToken,
  startOrgSignin,
  startSocialSignin,
  verifyOnetoolToken,
} from './service';

const ZOrgParams = z.object({ org_id: z.uuid({ message: 'Single sign-on is not set up for this organisation' }) });

export function registerSsoRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = rateLimitFor(deps.config, 'auth');
  const tags = ['sso'];

  r.get(
    '/sso/config',
    { config: limited, schema: { tags, summary: 'Single sign-on discovery by e-mail domain (or one-tool token)', querystring: ZSsoConfigQuery, response: withErrorResponses({ 200: ZSsoConfigResponse }) } },
    async (req) => ok(await getSsoConfig(deps, req.query)),
  );
  r.post(
    '/sso/signin',
    { config: limited, schema: { tags, summary: "Start the organisation's single sign-on (OIDC or SAML) for this e-mail", body: ZSsoSigninRequest, response: withErrorResponses({ 200: ZSsoStartResponse }) } },
    async (req) => ok(await startOrgSignin(deps, req.body.email)),
  );
  r.post(
    '/sso/activate',
    { config: limited, schema: { tags, summary: "Finish the organisation's single sign-on: OIDC code or SAML ticket", body: ZSsoActivateRequest, response: withErrorResponses({ 200: ZLoginResponse }) } },
    async (req) => ok(await finishSignin(deps, 'org', req.body)),
  );
  r.post(
    '/sso/google',
    { config: limited, schema: { tags, summary: 'Start signing in with Google', body: ZSsoSocialStartRequest.nullish(), response: withErrorResponses({ 200: ZSsoStartResponse }) } },
    async (req) => ok(await startSocialSignin(deps, 'google', req.body?.email)),
  );
  r.post(
    '/sso/microsoft',
    { config: limited, schema: { tags, summary: 'Start signing in with Microsoft', body: ZSsoSocialStartRequest.nullish(), response: withErrorResponses({ 200: ZSsoStartResponse }) } },
    async (req) => ok(await startSocialSignin(deps, 'microsoft', req.body?.email)),
  );
  r.post(
    '/sso/:provider/activate',
    {
      config: limited,
      schema: { tags, summary: 'Finish signing in with Google or Microsoft', params: ZSsoProviderParams, body: ZSsoActivateRequest, response: withErrorResponses({ 200: ZLoginResponse }) },
    },
    async (req) => ok(await finishSignin(deps, req.params.provider, req.body)),
  );
  r.post(
    '/onetool/verify_token',
    { config: limited, schema: { tags, summary: 'Check a one-tool login token without using it', body: ZOnetoolTokenRequest, response: withErrorResponses({ 200: ZOnetoolVerifyResponse }) } },
    async (req) => ok(await verifyOnetoolToken(deps, req.body.token)),
  );
  r.post(
    '/onetool/login',
    { config: limited, schema: { tags, summary: 'Log in with a one-tool token (single use)', body: ZOnetoolTokenRequest, response: withErrorResponses({ 200: ZLoginResponse }) } },
    async (req) => ok(await loginWithOnetoolToken(deps, req.body.token)),
  );
  // Operator command (`npm run ops -- onetool-token --email …`): the caller proves it holds APP_SECRET.
  r.post('/ops/onetool_token', { ...opsSecretRoute(deps.config), schema: { hide: true, body: z.object({ email: z.string().trim().min(3).max(320) }) } }, async (req) =>
    ok(await issueOnetoolToken(deps, req.body.email)),
  );
  r.post(
    '/user_preferences/sso/domains/verify',
    {
      onRequest: guards.requireAuth,
      config: limited,
      schema: {
        tags: ['settings'],
        security: [{ bearer: [] }],
        summary: "Verify a claimed single sign-on domain now: looks its TXT record up at _verilead-challenge.<domain> (owner, manager)",
        body: ZSsoDomainVerifyRequest,
        response: withErrorResponses({ 200: ZSsoDomainClaimResponse }),
      },
    },
    async (req) => ok(await verifySsoDomain({ db: deps.database.db, dnsServers: deps.config.dnsServers }, getCaller(req), req.body.domain)),
  );
  r.get(
    '/sso/saml/metadata/:org_id',
    { config: limited, schema: { tags, summary: "SAML service provider metadata for an organisation's identity provider", params: ZOrgParams } },
    async (req, reply) => reply.type('application/samlmetadata+xml; charset=utf-8').send(await getSamlMetadata(deps, req.params.org_id)),
  );

  // The SAML assertion consumer takes the identity provider's form POST (HTTP-POST binding).
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/sso/saml/acs/:org_id',
      {
        config: limited,
        schema: {
          tags,
          summary: 'SAML assertion consumer: checks the response and sends the browser back to the app',
          params: ZOrgParams,
          body: z.object({ SAMLResponse: z.string().max(400_000).optional(), RelayState: z.string().max(2000).optional() }).optional(),
        },
      },
      async (req, reply) => reply.redirect(await consumeSamlResponse(deps, req.params.org_id, req.body?.SAMLResponse), 303),
    );
  });
}
