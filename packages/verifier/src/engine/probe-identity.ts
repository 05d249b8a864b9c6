/**
 * Whether the verifier's HELO name and envelope sender can pass a receiving server's checks. Many receivers refuse
 * (or quietly distrust) a client whose HELO name is not a fully qualified name that resolves, and a sender whose
 * domain does not exist (Postfix's reject_unknown_helo_hostname / reject_unknown_sender_domain, Exchange Online's
 * sender checks). A production verifier needs outbound port 25, a HELO name with matching forward and reverse DNS
 * (the name resolves to the egress address, whose PTR names it back), and a sender address at a domain that exists.
 * Only the names are checked here (no DNS is asked): the warnings are for names no receiver can accept.
 */

/** Names reserved for local or test use (RFC 2606, RFC 6761, RFC 6762) and common private suffixes: never resolvable from the internet. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'localdomain', 'test', 'example', 'invalid', 'internal', 'lan', 'home', 'home.arpa', 'corp', 'intranet'];

/** Why `name` cannot be a public mail host name, or null when it may be one. */
export function describeUnpublicName(name: string): string | null {
  const lower = name.trim().toLowerCase().replace(/\.$/, '');
  if (lower === '') return 'it is empty';
  if (/^\[?[\d.]+\]?$/.test(lower) || lower.includes(':')) return 'it is an address literal, not a name';
  if (!lower.includes('.')) return 'it is not a fully qualified domain name';
  const suffix = LOCAL_SUFFIXES.find((s) => lower === s || lower.endsWith(`.${s}`));
  if (suffix) return `.${suffix} names are for local use and resolve nowhere on the internet`;
  if (lower.endsWith('.example.com') || lower.endsWith('.example.net') || lower.endsWith('.example.org') || ['example.com', 'example.net', 'example.org'].includes(lower)) {
    return 'example domains are reserved for documentation (RFC 2606)';
  }
  return null;
}

/** Warnings about the probe's HELO name and sender (empty when both may pass receivers' checks). */
export function checkProbeIdentity(identity: { heloName: string; mailFrom: string }): string[] {
  const warnings: string[] = [];
  const helo = describeUnpublicName(identity.heloName);
  if (helo) {
    warnings.push(
      `The verifier's HELO name "${identity.heloName}" cannot pass receivers' checks: ${helo}. Set VERIFIER_HELO_NAME (or PUBLIC_URL) to a public name whose A record is this server's outbound address, with a matching reverse DNS (PTR) record.`,
    );
  }
  const at = identity.mailFrom.lastIndexOf('@');
  const domain = at >= 0 ? identity.mailFrom.slice(at + 1).replace(/>.*$/, '') : '';
  const sender = at < 0 ? 'it has no domain' : describeUnpublicName(domain);
  if (sender) {
    warnings.push(`The verifier's sender "${identity.mailFrom}" cannot pass receivers' checks: ${sender}. Set VERIFIER_MAIL_FROM to an address at a domain that exists (with MX or A records).`);
  }
  return warnings;
}
