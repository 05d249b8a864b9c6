import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { escapeHtml, readForm } from './http-form';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listenOnLoopback } from '../http';

/**
 * A local SAML 2.0 identity provider on 127.0.0.1 for tests and `npm start -- --demo-idp`: it reads the
 * service provider's AuthnRequest (HTTP-Redirect binding), asks for an e-mail, and posts a signed Response
 * (HTTP-POST binding) back to the assertion consumer. Its key is a test key: never trust it elsewhere.
 */
const here = keyPairDir();
export const DEMO_SAML_CERT = readFileSync(join(here, 'demo-saml-idp.cert.pem'), 'utf8');
const DEMO_SAML_KEY = readFileSync(join(here, 'demo-saml-idp.key.pem'), 'utf8');

/**
 * The folder of the test key pair (beside this module's source), found by walking up from this module: it holds for
 * the TypeScript sources and for the server bundle `npm start -- --demo-idp` runs (apps/server/dist).
 */
function keyPairDir(): string {
  const from = dirname(fileURLToPath(import.meta.url));
  const inRepo = join('packages', 'test-doubles', 'src', 'identity');
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'demo-saml-idp.cert.pem'))) return dir;
    if (existsSync(join(dir, inRepo, 'demo-saml-idp.cert.pem'))) return join(dir, inRepo);
    if (dirname(dir) === dir) throw new Error(`The demo SAML key pair (${inRepo}) was not found above ${from}`);
  }
}

export type TAuthnRequest = { id: string; issuer: string; acsUrl: string };

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Decodes a deflated, base64 AuthnRequest (the SAMLRequest query parameter). */
export function parseAuthnRequest(samlRequest: string): TAuthnRequest {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const req = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:protocol', 'AuthnRequest')[0];
  const issuer = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]?.textContent?.trim();
  const id = req?.getAttribute('ID');
  const acsUrl = req?.getAttribute('AssertionConsumerServiceURL');
  if (!id || !issuer || !acsUrl) throw new Error('not an AuthnRequest');
  return { id, issuer, acsUrl };
}

function sign(xml: string, elementName: 'Assertion' | 'Response', key: string, cert: string): string {
  const sig = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const xpath = `//*[local-name(.)='${elementName}']`;
  sig.addReference({
    xpath,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

/** A signed SAML Response (assertion and response both signed), base64 as the HTTP-POST binding sends it. */
export function createSamlResponse(f: {
  idpEntityId: string;
  request: TAuthnRequest;
  email: string;
  name?: string;
  key?: string;
  cert?: string;
  /** The response's Destination and the assertion's Recipient (default: the request's ACS URL). */
  destination?: string;
  recipient?: string;
  /** Seconds the assertion stays valid (default 300). */
  validSeconds?: number;
  now?: Date;
}): string {
  const now = f.now ?? new Date();
  const until = new Date(now.getTime() + (f.validSeconds ?? 300) * 1000).toISOString();
  const before = new Date(now.getTime() - 30_000).toISOString();
  const issued = now.toISOString();
  const responseId = `_${randomUUID()}`;
  const assertionId = `_${randomUUID()}`;
  const email = escapeXml(f.email);
  const nameAttr = f.name
    ? `<saml:Attribute Name="name"><saml:AttributeValue>${escapeXml(f.name)}</saml:AttributeValue></saml:Attribute>`
    : '';
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${escapeXml(f.idpEntityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${escapeXml(f.recipient ?? f.request.acsUrl)}" InResponseTo="${escapeXml(f.request.id)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${before}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${escapeXml(f.request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute>${nameAttr}</saml:AttributeStatement>` +
    `</saml:Assertion>`;
  const key = f.key ?? DEMO_SAML_KEY;
  const cert = f.cert ?? DEMO_SAML_CERT;
  const signedAssertion = sign(assertion, 'Assertion', key, cert).replace(/^<\?xml[^>]*>/, '');
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${issued}" Destination="${escapeXml(f.destination ?? f.request.acsUrl)}" InResponseTo="${escapeXml(f.request.id)}">` +
    `<saml:Issuer>${escapeXml(f.idpEntityId)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signedAssertion +
    `</samlp:Response>`;
  const signedResponse = sign(response, 'Response', key, cert);
  return Buffer.from(signedResponse, 'utf8').toString('base64');
}



export type TLocalSamlIdp = { ssoUrl: string; entityId: string; certificate: string; stop(): Promise<void> };

export async function startLocalSamlIdp(opts: { port?: number } = {}): Promise<TLocalSamlIdp> {
  const server: Server = createServer();
  await listenOnLoopback(server, opts.port);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/saml/metadata`;
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const html = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><meta charset="utf-8"><title>Local SAML IdP</title></head><body>${body}</body></html>`);
    void (async () => {
      if (req.method === 'GET' && url.pathname === '/saml/sso') {
        const samlRequest = url.searchParams.get('SAMLRequest') ?? '';
        parseAuthnRequest(samlRequest);
        return html(
          200,
          `<h1>Sign in (SAML)</h1><p>Local SAML identity provider for tests and demos.</p><form method="post" action="/saml/sso/login">` +
            `<input type="hidden" name="SAMLRequest" value="${escapeHtml(samlRequest)}"><input type="hidden" name="RelayState" value="${escapeHtml(url.searchParams.get('RelayState') ?? '')}">` +
            `<label for="email">E-mail</label> <input id="email" name="email" type="email" required> <label for="name">Name</label> <input id="name" name="name" type="text"> <button type="submit">Sign in</button></form>`,
        );
      }
      if (req.method === 'POST' && url.pathname === '/saml/sso/login') {
        const form = await readForm(req);
        const request = parseAuthnRequest(form.SAMLRequest ?? '');
        const samlResponse = createSamlResponse({ idpEntityId: entityId, request, email: (form.email ?? '').trim().toLowerCase(), name: form.name?.trim() || undefined });
        return html(
          200,
          `<form id="post" method="post" action="${escapeHtml(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"><input type="hidden" name="RelayState" value="${escapeHtml(form.RelayState ?? '')}"><noscript><button type="submit">Continue</button></noscript></form>` +
            `<script>document.getElementById('post').submit()</script>`,
        );
      }
      res.writeHead(404).end();
    })().catch(() => {
      if (!res.headersSent) html(400, '<p>This sign-in request could not be read. Please start again.</p>');
    });
  });
  return {
    ssoUrl: `${base}/saml/sso`,
    entityId,
    certificate: DEMO_SAML_CERT.trim(),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
