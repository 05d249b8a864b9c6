// The local identity providers: OpenID Connect and SAML 2.0 on 127.0.0.1, the demo pair `npm start -- --demo-idp`
// starts, a DNS server for domain-claim challenges, and a browserless walk through the OpenID Connect login.
export { startChallengeDns, type TChallengeDns } from './challenge-dns';
export { DEMO_ORG_OIDC_CLIENT, startDemoIdp } from './demo-idp';
export { followLocalOidcLogin } from './follow-login';
export { startLocalOidcIdp, type TLocalOidcClient, type TLocalOidcIdp } from './oidc-idp';
export { createSamlResponse, DEMO_SAML_CERT, parseAuthnRequest, startLocalSamlIdp, type TAuthnRequest, type TLocalSamlIdp } from './saml-idp';
