import type { TFakeReply } from './fake-server';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A platform's consent page as a browser sees it: who asks, for which account, and "Allow" / "Deny" (a form posted back to `action`). */
export function consentPage(opts: { platform: string; account: string; action: string; fields: Record<string, string> }): TFakeReply {
  const hidden = Object.entries(opts.fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${esc(opts.platform)} – Authorize</title></head><body>
<h1>${esc(opts.platform)}</h1><p>Verilead would like to access the ${esc(opts.platform)} account <strong>${esc(opts.account)}</strong>.</p>
<form method="post" action="${esc(opts.action)}">${hidden}
<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></form></body></html>`;
  return { status: 200, raw: html, headers: { 'content-type': 'text/html; charset=utf-8' } };
}

export function htmlError(status: number, message: string): TFakeReply {
  return { status, raw: `<!doctype html><html><body><h1>Error</h1><p>${esc(message)}</p></body></html>`, headers: { 'content-type': 'text/html; charset=utf-8' } };
}

/** A redirect back to the client with the query `params` added to its redirect URI. */
export function redirectBack(redirectUri: string, params: Record<string, string>): TFakeReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { status: 302, raw: '', headers: { location: url.toString() } };
}

export const str = (body: unknown, key: string): string => {
  const v = (body as Record<string, unknown> | null)?.[key];
  return typeof v === 'string' ? v : '';
};
