import { toAsciiDomain, toUnicodeDomain } from './idn';

export type TParsedAddress = {
  ok: true;
  /** Local part as given (quoted local parts keep their quotes). */
  local: string;
  /** Domain in ASCII (punycode, lower case) after UTS-46 processing. */
  domain: string;
  /** Domain in Unicode for display. */
  domainUnicode: string;
  /** `local@domain` with the ASCII domain: the form sent in RCPT TO. */
  address: string;
  /** True when the local part is a quoted string. */
  quoted: boolean;
  /** True when the local part holds non-ASCII characters (needs the SMTPUTF8 extension, RFC 6531). */
  smtputf8: boolean;
};
export type TParseFailure = { ok: false; error: string; local: string; domain: string };
export type TParseResult = TParsedAddress | TParseFailure;

const MAX_LOCAL_OCTETS = 64;
const MAX_ADDRESS_OCTETS = 254;
const MAX_DOMAIN_OCTETS = 255;
const MAX_LABEL_OCTETS = 63;

// RFC 5322 atext plus RFC 6531 UTF8-non-ascii.
const ATEXT = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+$/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** A dot-atom local part as nearly every address has one: atoms of atext joined by single dots. */
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+(?:\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+)*$/u;
/** A host name of letter-digit-hyphen labels of at most 63 characters, two labels or more, the last not all digits. */
const PLAIN_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z-])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** UTF-8 octets of `text`: a UTF-16 code unit takes at most 3, so short strings need no count. */
function countOctets(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function octetsOver(text: string, max: number): boolean {
  return text.length * 3 > max && countOctets(text) > max;
}

function fail(error: string, local = '', domain = ''): TParseFailure {
  return { ok: false, error, local, domain };
}

function checkQuotedLocal(local: string): string | null {
  const body = local.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') {
      const next = body[i + 1];
      if (next === undefined) return 'the quoted local part ends with a lone backslash';
      const nextCode = next.codePointAt(0) ?? 0;
      if (nextCode < 0x20 || nextCode === 0x7f) return 'the quoted local part escapes a control character';
      i++;
      continue;
    }
    if (ch === '"') return 'the quoted local part contains an unescaped double quote';
    if (code < 0x20 || code === 0x7f) return 'the quoted local part contains a control character';
  }
  return null;
}

function checkDotAtomLocal(local: string): string | null {
  if (DOT_ATOM.test(local)) return null;
  if (local.startsWith('.')) return 'the local part starts with a dot';
  if (local.endsWith('.')) return 'the local part ends with a dot';
  if (local.includes('..')) return 'the local part contains consecutive dots';
  for (const atom of local.split('.')) {
    if (!ATEXT.test(atom)) {
      const bad = [...atom].find((c) => !ATEXT.test(c)) ?? '?';
      return `the local part contains the character ${JSON.stringify(bad)}, which is only allowed inside a quoted local part`;
    }
  }
  return null;
}

function checkDomainLabels(ascii: string): string | null {
  if (ascii.length <= MAX_DOMAIN_OCTETS && PLAIN_HOST.test(ascii)) return null;
  if (countOctets(ascii) > MAX_DOMAIN_OCTETS) return `the domain is longer than ${MAX_DOMAIN_OCTETS} characters`;
  const labels = ascii.split('.');
  if (labels.length < 2) return 'the domain has no top-level domain (a dot is missing)';
  for (const label of labels) {
    if (label.length === 0) return 'the domain contains an empty label (consecutive dots or a leading dot)';
    if (label.length > MAX_LABEL_OCTETS) return `a domain label is longer than ${MAX_LABEL_OCTETS} characters`;
    if (!LDH_LABEL.test(label)) {
      if (label.startsWith('-') || label.endsWith('-')) return `the domain label "${label}" starts or ends with a hyphen`;
      return `the domain label "${label}" contains characters not allowed in host names`;
    }
  }
  const tld = labels[labels.length - 1] as string;
  if (/^[0-9]+$/.test(tld)) return 'the domain is an IP address, which is not verifiable';
  return null;
}

/**
 * Parse and normalise an address the way mail servers accept it (RFC 5321/5322, RFC 6531 UTF-8 local parts,
 * IDN domains through UTS-46 to punycode). Surrounding white space is ignored; nothing touches the network.
 */
export function parseAddress(input: string): TParseResult {
  const text = input.trim();
  if (text.length === 0) return fail('the address is empty');
  const at = text.lastIndexOf('@');
  if (at < 0) return fail('the address has no @ sign');
  const local = text.slice(0, at);
  const rawDomain = text.slice(at + 1);
  if (local.length === 0) return fail('the local part before the @ is empty', local, rawDomain);
  if (rawDomain.length === 0) return fail('the domain after the @ is empty', local, rawDomain);

  const quoted = local.length >= 2 && local.startsWith('"') && local.endsWith('"');
  const localError = quoted ? checkQuotedLocal(local) : local.includes('@') ? 'the address has more than one @ sign outside quotes' : checkDotAtomLocal(local);
  if (localError) return fail(localError, local, rawDomain);
  if (octetsOver(local, MAX_LOCAL_OCTETS)) return fail(`the local part is longer than ${MAX_LOCAL_OCTETS} octets`, local, rawDomain);

  if (rawDomain.startsWith('[') || /^[0-9.]+$/.test(rawDomain) || rawDomain.includes(':')) {
    return fail('the domain is an IP address literal, which is not verifiable', local, rawDomain);
  }
  if (/\s/.test(rawDomain)) return fail('the domain contains white space', local, rawDomain);
  if (rawDomain.endsWith('.')) return fail('the domain ends with a dot', local, rawDomain);
  const ascii = toAsciiDomain(rawDomain);
  if (!ascii) return fail('the domain is not a valid internationalised domain name (UTS-46)', local, rawDomain);
  const domainError = checkDomainLabels(ascii);
  if (domainError) return fail(domainError, local, ascii);

  const address = `${local}@${ascii}`;
  if (octetsOver(address, MAX_ADDRESS_OCTETS)) return fail(`the address is longer than ${MAX_ADDRESS_OCTETS} octets`, local, ascii);

  return {
    ok: true,
    local,
    domain: ascii,
    domainUnicode: toUnicodeDomain(ascii),
    address,
    quoted,
    // eslint-disable-next-line no-control-regex
    smtputf8: /[^\x00-\x7f]/.test(local),
  };
}
