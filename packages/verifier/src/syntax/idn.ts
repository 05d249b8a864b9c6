import { domainToASCII, domainToUnicode } from 'node:url';

/** Letters, digits, dots and hyphens only: a domain UTS-46 leaves as it is, once lower-cased. */
const PLAIN_DOMAIN = /^[a-z0-9.-]+$/i;
/** A last label the URL host parser reads as a number (so the whole host as an IPv4 address): left to node. */
const NUMERIC_LAST_LABEL = /(?:^|\.)(?:0x[0-9a-f]*|[0-9]+)\.?$/i;

/**
 * `domainToASCII` (UTS-46 to punycode, lower case), without the ICU call for the plain ASCII domains nearly every
 * address has: those only need lower-casing. Punycode labels (`xn--`) and hosts ending in a number keep node's
 * full processing, so the answer is always node's (idn.test.ts compares them). Answers '' for an invalid domain.
 */
export function toAsciiDomain(domain: string): string {
  if (PLAIN_DOMAIN.test(domain) && !domain.toLowerCase().includes('xn--') && !NUMERIC_LAST_LABEL.test(domain)) return domain.toLowerCase();
  return domainToASCII(domain);
}

/** `domainToUnicode` for display; a domain without punycode labels is already its Unicode form. */
export function toUnicodeDomain(ascii: string): string {
  if (!ascii.includes('xn--')) return ascii;
  return domainToUnicode(ascii) || ascii;
}
