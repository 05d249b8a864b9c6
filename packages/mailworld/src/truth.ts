import { DOMAIN_BY_NAME } from './scenarios';
import type { TExpected, TMailboxState } from './types';

// RFC 5322 atext, plus UTF-8 (RFC 6532) for internationalised local parts
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\u0080-\\uFFFF-]+";
const LOCAL_PART = new RegExp(`^${ATEXT}(\\.${ATEXT})*$`);
const DOMAIN_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Split a syntactically valid address into lower-cased local part and domain, or null. */
export function parseAddress(email: string): { local: string; domain: string } | null {
  if (email.length > 254) return null;
  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@')) return null;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return null;
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => DOMAIN_LABEL.test(l))) return null;
  return { local: local.toLowerCase(), domain: domain.toLowerCase() };
}

/** The verdict a correct verifier reaches for an address in this world, given its mailbox directory. */
export function computeExpected(email: string, mailboxes: ReadonlyMap<string, TMailboxState>): TExpected {
  const parsed = parseAddress(email);
  if (!parsed) return { status: 'invalid', reason: 'invalid_syntax' };
  const spec = DOMAIN_BY_NAME.get(parsed.domain);
  if (!spec) return { status: 'invalid', reason: 'domain_not_found' };
  if (spec.fixed) return { ...spec.fixed };
  // RFC 6531: a UTF-8 address may only be sent to a server that offers SMTPUTF8; no compliant sender can deliver there
  // and no verifier can check the mailbox, so the right answer is unknown (smtp_error), never valid or invalid.
  if (spec.noSmtpUtf8 && /[^ -~]/.test(parsed.local)) return { status: 'unknown', reason: 'smtp_error' };
  if (spec.mailbox === 'accept_all') return { status: 'catch_all', reason: 'accept_all' };
  const state = mailboxes.get(`${parsed.local}@${parsed.domain}`);
  if (state === 'active') return { status: 'valid', reason: 'valid_mailbox' };
  if (state === 'full') return { status: 'invalid', reason: 'mailbox_full' };
  if (state === 'disabled') return { status: 'invalid', reason: 'mailbox_disabled' };
  return { status: 'invalid', reason: 'mailbox_not_found' };
}
