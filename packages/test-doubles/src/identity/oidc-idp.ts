import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { escapeHtml, readForm } from './http-form';
import { listenOnLoopback } from '../http';

/**
 * A local OpenID Connect identity provider on 127.0.0.1 (the `oidc-provider` package), for tests and
 * `npm start -- --demo-idp`. Anyone may sign in with any e-mail: the login page asks for it and the
 * provider vouches for it (email_verified), as Google, Microsoft or a company's IdP would.
 */
export type TLocalOidcClient = { clientId: string; clientSecret: string; redirectUris: string[] };
export type TLocalOidcIdp = { issuer: string; stop(): Promise<void> };



function loginPage(uid: string, title: string, hint: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:360px;margin:80px auto}label,input,button{display:block;width:100%;margin-top:8px}input,button{padding:8px}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>Local identity provider for tests and demos.</p>
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" required value="${escapeHtml(hint)}">
<label for="name">Name</label><input id="name" name="name" type="text">
<button type="submit">Sign in</button></form></body></html>`;
}

export async function startLocalOidcIdp(opts: { clients: TLocalOidcClient[]; port?: number; title?: string }): Promise<TLocalOidcIdp> {
  const names = new Map<string, string>();
  const server: Server = createServer();
  await listenOnLoopback(server, opts.port);
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...signingKey, kid: 'local-idp', use: 'sig', alg: 'RS256' }] as never },
    clients: opts.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put e-mail and name in the ID token, as Google does.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ['local-idp-cookie-key-not-secret'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: true, name: names.get(id) ?? id.slice(0, id.indexOf('@')) }),
    }),
    ttl: { Session: 600, Interaction: 600, Grant: 600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
  });
  const callback = provider.callback();

  async function handleInteraction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (details.prompt.name === 'login') {
      if (req.method === 'POST' && action === 'login') {
        const form = await readForm(req);
        const email = (form.email ?? '').trim().toLowerCase();
        if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(uid, opts.title ?? 'Sign in', ''));
          return;
        }
        if (form.name?.trim()) names.set(email, form.name.trim());
        await provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false });
        return;
      }
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(uid, opts.title ?? 'Sign in', hint));
      return;
    }
    // Consent is given in code: this provider represents the user's own organisation.
    const accountId = details.session?.accountId;
    const clientId = details.params.client_id;
    if (!accountId || typeof clientId !== 'string') throw new Error('no session');
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId });
    if (!grant) throw new Error('grant not found');
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  server.on('request', (req, res) => {
    const m = /^\/interaction\/([^/?]+)(?:\/([a-z]+))?/.exec(req.url ?? '');
    if (!m?.[1]) return void callback(req, res);
    handleInteraction(req, res, decodeURIComponent(m[1]), m[2]).catch(() => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' }).end('This sign-in has expired. Please start again.');
    });
  });

  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
