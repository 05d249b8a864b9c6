import { startLocalOidcIdp } from './oidc-idp';
import { startLocalSamlIdp } from './saml-idp';

export const DEMO_ORG_OIDC_CLIENT = { clientId: 'demo-org', clientSecret: 'demo-org-secret' };

/**
 * `npm start -- --demo-idp`: a local OpenID Connect provider (standing in for Google, Microsoft and a company's
 * IdP) on PORT+30 and a local SAML provider on PORT+31, both on 127.0.0.1; anyone signs in with any e-mail.
 */
export async function startDemoIdp(config: { port: number; configuredPublicUrl: string | undefined }) {
  // Without PUBLIC_URL the app's links follow the address it is opened at: both loopback names are registered.
  const bases = config.configuredPublicUrl ? [config.configuredPublicUrl] : [`http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`];
  const redirectUris = bases.map((b) => `${b}/sso/signin`);
  const oidc = await startLocalOidcIdp({
    port: config.port + 30,
    title: 'Demo identity provider',
    clients: [
      { clientId: 'demo-google', clientSecret: 'demo-google-secret', redirectUris },
      { clientId: 'demo-microsoft', clientSecret: 'demo-microsoft-secret', redirectUris },
      { ...DEMO_ORG_OIDC_CLIENT, redirectUris },
    ],
  });
  const saml = await startLocalSamlIdp({ port: config.port + 31 });
  // The server's `sso` settings: its Google and Microsoft buttons sign in at this provider.
  const configOverrides = {
    sso: {
      google: { issuer: oidc.issuer, clientId: 'demo-google', clientSecret: 'demo-google-secret' },
      microsoft: { issuer: oidc.issuer, clientId: 'demo-microsoft', clientSecret: 'demo-microsoft-secret' },
    },
  };
  const summary = [
    'identity providers (sign in with any e-mail):',
    `  OpenID Connect: issuer ${oidc.issuer}, client id ${DEMO_ORG_OIDC_CLIENT.clientId}, secret ${DEMO_ORG_OIDC_CLIENT.clientSecret} (Google and Microsoft buttons use it too)`,
    `  SAML 2.0: SSO URL ${saml.ssoUrl}; its certificate:`,
    saml.certificate,
  ].join('\n');
  return {
    configOverrides,
    summary,
    oidcIssuer: oidc.issuer,
    samlSsoUrl: saml.ssoUrl,
    stop: async () => {
      await oidc.stop();
      await saml.stop();
    },
  };
}
