import { DOMParser } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { deleteSamlRequest, insertSamlRequest, selectSamlRequest } from './queries';

/** How long an AuthnRequest we sent stays answerable. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export type TSamlSpUrls = { entityId: string; acsUrl: string };
export type TSamlIdentity = { email: string; name: string | null; assertionId: string; notOnOrAfter: Date };

/** The service provider's addresses for one organisation. */
export function getSamlSpUrls(publicUrl: string, orgId: string): TSamlSpUrls {
  return { entityId: `${publicUrl}/api/v1/sso/saml/metadata/${orgId}`, acsUrl: `${publicUrl}/api/v1/sso/saml/acs/${orgId}` };
}

/**
 * node-saml's request-id cache in the database, so any API process can take the answer. Ids are kept under the
 * organisation's entity id: a request sent for one organisation is answerable at that organisation's ACS only.
 */
function createDbCache(exec: TDb, entityId: string): CacheProvider {
  const keyOf = (requestId: string) => `${entityId} ${requestId}`;
  return {
    saveAsync: async (key, value) => {
      await insertSamlRequest(exec, keyOf(key), value);
      return { value, createdAt: Date.now() };
    },
    getAsync: (key) => selectSamlRequest(exec, keyOf(key), new Date(Date.now() - SAML_REQUEST_TTL_MS)),
    removeAsync: async (key) => (key ? deleteSamlRequest(exec, keyOf(key)) : null),
  } as CacheProvider;
}

export function createSaml(exec: TDb, f: { urls: TSamlSpUrls; ssoUrl: string; certificate: string }): SAML {
  return new SAML({
    entryPoint: f.ssoUrl,
    issuer: f.urls.entityId,
    callbackUrl: f.urls.acsUrl,
    audience: f.urls.entityId,
    idpCert: f.certificate,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    acceptedClockSkewMs: 60_000,
    identifierFormat: EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
    cacheProvider: createDbCache(exec, f.urls.entityId),
  });
}

function pickString(profile: Profile, keys: string[]): string | null {
  for (const k of keys) {
    const v = (profile as Record<string, unknown>)[k];
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (Array.isArray(v) && typeof v[0] === 'string' && v[0].trim()) return v[0].trim();
  }
  return null;
}

/** The assertion's ID and NotOnOrAfter (node-saml checked the signature over it). */
function readAssertionFacts(samlResponse: string): { assertionId: string; notOnOrAfter: Date } {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const assertion = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Assertion')[0];
  const assertionId = assertion?.getAttribute('ID');
  if (!assertion || !assertionId) throw new AppError('sso_failed', 'The identity provider sent no assertion');
  const conditions = assertion.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Conditions')[0];
  const until = Date.parse(conditions?.getAttribute('NotOnOrAfter') ?? '');
  return { assertionId, notOnOrAfter: new Date(Number.isFinite(until) ? until : Date.now() + 24 * 3600_000) };
}

const SAML_PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML_ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/**
 * The response's `Destination` and its bearer `SubjectConfirmationData/@Recipient` must both name this organisation's
 * assertion consumer URL (SAML profiles 4.1.4.2–4.1.4.3; node-saml checks neither). Read after node-saml verified the
 * signature over the root Response, which encloses the one assertion it accepted, so both values are the signed ones.
 */
function assertAddressedTo(samlResponse: string, acsUrl: string): void {
  const doc = new DOMParser().parseFromString(Buffer.from(samlResponse, 'base64').toString('utf8'), 'text/xml');
  const root = doc.documentElement;
  const elsewhere = new AppError('sso_failed', 'This sign-in answer was addressed to another sign-in address than your organisation\'s. Please ask your administrator to check the identity provider settings.');
  if (!root || root.namespaceURI !== SAML_PROTOCOL_NS || root.localName !== 'Response' || root.getAttribute('Destination') !== acsUrl) throw elsewhere;
  const confirmations = Array.from(root.getElementsByTagNameNS(SAML_ASSERTION_NS, 'SubjectConfirmation')).filter((c) => c.getAttribute('Method') === BEARER);
  if (confirmations.length === 0) throw elsewhere;
  for (const confirmation of confirmations) {
    const data = confirmation.getElementsByTagNameNS(SAML_ASSERTION_NS, 'SubjectConfirmationData')[0];
    if (data?.getAttribute('Recipient') !== acsUrl) throw elsewhere;
  }
}

/**
 * Validates a POSTed SAMLResponse: signature, audience, InResponseTo and time conditions (node-saml), then that its
 * Destination and Recipient are this organisation's assertion consumer URL.
 */
export async function validateSamlResponse(saml: SAML, samlResponse: string, acsUrl: string): Promise<TSamlIdentity> {
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch {
    throw new AppError('sso_failed', 'The sign-in answer from your identity provider could not be verified. Please try again.');
  }
  if (!profile) throw new AppError('sso_failed', 'The identity provider sent no sign-in');
  assertAddressedTo(samlResponse, acsUrl);
  const email = (pickString(profile, ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress']) ?? profile.nameID ?? '').toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new AppError('sso_failed', 'The identity provider did not share your e-mail address');
  const name = pickString(profile, ['name', 'displayName', 'http://schemas.microsoft.com/identity/claims/displayname']);
  return { email, name, ...readAssertionFacts(samlResponse) };
}
