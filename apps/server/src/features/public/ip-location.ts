import type { TIpLocation } from '@verilead/contracts';

/** Headers a CDN or proxy in front of the app sets with the visitor's country. */
const COUNTRY_HEADERS = ['cf-ipcountry', 'cloudfront-viewer-country', 'x-vercel-ip-country', 'x-country-code'];

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The region of the first Accept-Language entry that names one (e.g. en-IN → IN). */
export function getAcceptLanguageCountry(acceptLanguage: string | undefined): string | null {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const m = /^\s*[a-z]{2,3}-([a-z]{2})\b/i.exec(part);
    if (m?.[1]) return m[1].toUpperCase();
  }
  return null;
}

/**
 * Where the visitor is, from the request alone (no outside service): the bundled GeoIP country data for the
 * client address, then a trusted proxy's country header, then the browser's language region. The GeoIP data (about
 * 8 MB, read into memory when its package loads) is loaded on the first lookup, not by every server at start.
 */
export async function locateRequest(ip: string | undefined, headers: Record<string, string | string[] | undefined>, trustProxyHeaders: boolean): Promise<TIpLocation> {
  const clean = ip?.replace(/^::ffff:/, '') ?? null;
  let country: string | null = null;
  let source: TIpLocation['source'] = 'unknown';
  const hit = clean ? (await import('geoip-country')).default.lookup(clean) : null;
  if (hit?.country) {
    country = hit.country;
    source = 'geoip';
  }
  if (!country && trustProxyHeaders) {
    for (const name of COUNTRY_HEADERS) {
      const v = headerValue(headers, name)?.trim().toUpperCase();
      if (v && /^[A-Z]{2}$/.test(v) && v !== 'XX') {
        country = v;
        source = 'proxy_header';
        break;
      }
    }
  }
  if (!country) {
    country = getAcceptLanguageCountry(headerValue(headers, 'accept-language'));
    if (country) source = 'accept_language';
  }
  return { ip: clean, country_code: country, source, currency: country === 'IN' ? 'INR' : 'USD' };
}
