/**
 * Typo suggestion for the domain of an address (gmial.com → gmail.com, yahoo.con → yahoo.com).
 * This function only proposes a candidate; the engine offers it to the user ONLY when the original domain
 * has no mail (NXDOMAIN, or neither MX nor A/AAAA) and the candidate is a known provider or has MX records.
 */

/** Popular mailbox providers that typos are matched against. */
export const KNOWN_PROVIDER_DOMAINS = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.co.in', 'ymail.com', 'rocketmail.com',
  'hotmail.com', 'hotmail.co.uk', 'hotmail.fr', 'outlook.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com',
  'aol.com', 'proton.me', 'protonmail.com', 'zoho.com', 'yandex.ru', 'yandex.com', 'mail.ru', 'gmx.com', 'gmx.de', 'gmx.net',
  'web.de', 'fastmail.com', 'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net', 'orange.fr', 'free.fr', 'libero.it',
  'qq.com', '163.com', 'rediffmail.com', 'hey.com', 'tutanota.com',
] as const;

const KNOWN_TLDS = ['com', 'net', 'org', 'edu', 'gov', 'io', 'co', 'co.uk', 'de', 'fr', 'it', 'es', 'nl', 'ru', 'in', 'ca', 'au', 'me', 'us', 'info', 'biz'];

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function measureEditDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

function splitTld(domain: string): { name: string; tld: string } {
  for (const tld of ['co.uk', 'co.in', 'com.au']) if (domain.endsWith(`.${tld}`)) return { name: domain.slice(0, -tld.length - 1), tld };
  const dot = domain.lastIndexOf('.');
  return dot < 0 ? { name: domain, tld: '' } : { name: domain.slice(0, dot), tld: domain.slice(dot + 1) };
}

/**
 * Suggest a corrected domain (or address, when given an address) for a likely typo; null when nothing is close.
 * Rules: 1) distance ≤ 1 (≤ 2 for domains of 10+ characters) from a known provider domain; 2) otherwise a
 * misspelled top-level domain one edit away from a common TLD (example.con → example.com).
 */
export function suggestTypo(addressOrDomain: string): string | null {
  const at = addressOrDomain.lastIndexOf('@');
  const local = at >= 0 ? addressOrDomain.slice(0, at) : null;
  const domain = (at >= 0 ? addressOrDomain.slice(at + 1) : addressOrDomain).trim().toLowerCase();
  if (!domain || (KNOWN_PROVIDER_DOMAINS as readonly string[]).includes(domain)) return null;
  const withLocal = (d: string): string => (local === null ? d : `${local}@${d}`);

  let best: { domain: string; distance: number } | null = null;
  const limit = domain.length >= 10 ? 2 : 1;
  for (const candidate of KNOWN_PROVIDER_DOMAINS) {
    const distance = measureEditDistance(domain, candidate);
    if (distance <= limit && (!best || distance < best.distance)) best = { domain: candidate, distance };
  }
  if (best) return withLocal(best.domain);

  const { name, tld } = splitTld(domain);
  if (name && tld && !KNOWN_TLDS.includes(tld)) {
    const fixed = KNOWN_TLDS.find((t) => !t.includes('.') && measureEditDistance(tld, t) === 1 && t[0] === tld[0]);
    if (fixed) return withLocal(`${name}.${fixed}`);
  }
  return null;
}

/** True when `typed` is `name` with one typing slip: two neighbours swapped, a letter (not the first) dropped, or a letter doubled. */
function isTypingSlip(typed: string, name: string): boolean {
  if (typed === name) return false;
  if (typed.length === name.length) {
    const i = [...typed].findIndex((c, k) => c !== name[k]);
    return i >= 0 && i + 1 < typed.length && typed[i] === name[i + 1] && typed[i + 1] === name[i] && typed.slice(i + 2) === name.slice(i + 2);
  }
  if (typed.length === name.length - 1) {
    for (let i = 1; i < name.length; i++) if (name.slice(0, i) + name.slice(i + 1) === typed) return true;
    return false;
  }
  if (typed.length === name.length + 1) {
    for (let i = 1; i < typed.length; i++) if (typed[i] === typed[i - 1] && typed.slice(0, i) + typed.slice(i + 1) === name) return true;
  }
  return false;
}

/**
 * True when a domain is a misspelling of a known provider's (gmial.com, yahooo.com, hotmial.com): same top-level
 * domain and a provider name of 5+ letters with one typing slip. Such domains are no mailbox provider, even where
 * a public list of free domains carries them. Real providers with close names stay apart: a different TLD
 * (hotmail.de), a substituted letter (email.com, ymail.com) or a dropped first letter (mail.com) is no slip.
 */
export function isProviderMisspelling(domain: string): boolean {
  const d = domain.trim().toLowerCase();
  if ((KNOWN_PROVIDER_DOMAINS as readonly string[]).includes(d)) return false;
  const typed = splitTld(d);
  return KNOWN_PROVIDER_DOMAINS.some((provider) => {
    const known = splitTld(provider);
    return known.tld === typed.tld && known.name.length >= 5 && isTypingSlip(typed.name, known.name);
  });
}
