/**
 * Walks a browser's way through the local OpenID Connect provider without a browser (tests): follows the
 * redirects with a cookie jar, fills in the login form, and answers the URL the provider sends back to.
 */
export async function followLocalOidcLogin(authorizeUrl: string, email: string, appPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = authorizeUrl;
  let method: 'GET' | 'POST' = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(appPrefix)) return new URL(url);
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new Error(`unexpected answer ${res.status} from ${url}: ${html.slice(0, 200)}`);
    url = new URL(action.replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d))), url).href;
    method = 'POST';
    body = new URLSearchParams({ email }).toString();
  }
  throw new Error('too many redirects');
}
