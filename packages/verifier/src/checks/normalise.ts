import { toAsciiDomain } from '../syntax/idn';

/** Providers that ignore dots in the local part. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);
/** Providers known to deliver `local+tag` to `local`. */
const PLUS_TAG_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com',
  'fastmail.com', 'proton.me', 'protonmail.com', 'pm.me', 'yandex.ru', 'yandex.com', 'zoho.com', 'hey.com',
]);

/**
 * Key under which duplicates of one mailbox collapse. Rules:
 * 1. trim, lower-case the whole address (local parts are case-insensitive at every real provider), IDN domain to punycode;
 * 2. googlemail.com becomes gmail.com;
 * 3. Gmail: dots in the local part are removed;
 * 4. `+tag` suffixes are removed for providers known to support sub-addressing (Gmail, Microsoft consumer, iCloud,
 *    Fastmail, Proton, Yandex, Zoho, HEY). Other domains keep `+tag`, since their servers may treat it literally.
 * Strings without an @ are returned trimmed and lower-cased.
 */
export function normaliseForDedupe(address: string): string {
  const text = address.trim().toLowerCase();
  const at = text.lastIndexOf('@');
  if (at <= 0) return text;
  let local = text.slice(0, at);
  let domain = text.slice(at + 1);
  domain = toAsciiDomain(domain) || domain;
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (PLUS_TAG_DOMAINS.has(domain)) {
    const plus = local.indexOf('+');
    if (plus > 0) local = local.slice(0, plus);
  }
  if (DOTLESS_DOMAINS.has(domain)) local = local.replace(/\./g, '');
  return `${local}@${domain}`;
}
