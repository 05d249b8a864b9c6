import { z } from 'zod';
import { ZEmail } from './common';
import { ZSuccess } from './envelopes';

// ---------- single sign-on: discovery, start, finish ----------

/** Shown when a member of an "SSO only" organisation tries a password. */
export const SSO_ONLY_MESSAGE = 'Your organisation requires single sign-on. Please sign in with SSO.';

/** The social providers the server signs in with (their issuers are configurable). */
export const ZSocialSsoProvider = z.enum(['google', 'microsoft']);
export type TSocialSsoProvider = z.infer<typeof ZSocialSsoProvider>;

/** GET /sso/config: by e-mail (domain discovery) or by a one-tool token; without either, only the social buttons. */
export const ZSsoConfigQuery = z
  .object({
    email: ZEmail.optional(),
    token: z.string().trim().min(10, { message: 'This link is invalid or has expired' }).max(200).optional(),
  });
export const ZSsoConfig = z.object({
  /** The e-mail's domain belongs to an organisation with single sign-on turned on. */
  sso_enabled: z.boolean(),
  /** Password login is refused for the organisation's members. */
  sso_only: z.boolean(),
  protocol: z.enum(['oidc', 'saml', 'google', 'microsoft']).nullable(),
  /** The social buttons this server can offer. */
  social_providers: z.array(ZSocialSsoProvider),
});
export type TSsoConfig = z.infer<typeof ZSsoConfig>;
export const ZSsoConfigResponse = ZSuccess(ZSsoConfig);

/** POST /sso/signin: start the organisation's single sign-on for this e-mail. */
export const ZSsoSigninRequest = z.object({ email: ZEmail });
/** POST /sso/google, /sso/microsoft: start the social sign-in. */
export const ZSsoSocialStartRequest = z.object({ email: ZEmail.optional() });
export const ZSsoStart = z.object({ redirect_url: z.string() });
export type TSsoStart = z.infer<typeof ZSsoStart>;
export const ZSsoStartResponse = ZSuccess(ZSsoStart);

/** POST /sso/activate and /sso/{provider}/activate: the identity provider's answer, as it came back. */
export const ZSsoActivateRequest = z
  .object({
    state: z.string().trim().min(1).max(200).optional(),
    code: z.string().trim().min(1).max(4000).optional(),
    iss: z.string().max(2000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    /** The one-time ticket the SAML assertion consumer hands to the app. */
    ticket: z.string().trim().min(10).max(200).optional(),
  })
  .refine((v) => v.ticket !== undefined || v.state !== undefined, { message: 'The sign-in answer is incomplete. Please start again.', path: ['state'] });
export type TSsoActivateRequest = z.infer<typeof ZSsoActivateRequest>;
export const ZSsoProviderParams = z.object({ provider: ZSocialSsoProvider });

// ---------- one-tool token login ----------

export const ZOnetoolTokenRequest = z.object({ token: z.string().trim().min(10, { message: 'This link is invalid or has expired' }).max(200) });
export const ZOnetoolVerify = z.object({ valid: z.boolean(), email: z.string().nullable() });
export type TOnetoolVerify = z.infer<typeof ZOnetoolVerify>;
export const ZOnetoolVerifyResponse = ZSuccess(ZOnetoolVerify);
