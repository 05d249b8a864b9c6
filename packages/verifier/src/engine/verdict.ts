import type { TReasonCode, TSafeToSend, TVerificationStatus } from '../types';

/** Readable sentence for each reason code (the invalid_syntax text is replaced by the specific syntax error). */
export const REASON_TEXTS: Record<TReasonCode, string> = {
  valid_mailbox: 'The mail server accepted this mailbox and rejected a random address of the domain.',
  allowed_by_user_list: 'The address or its domain is on your allow list.',
  invalid_syntax: 'The address is not syntactically valid.',
  domain_not_found: 'The domain does not exist (NXDOMAIN).',
  null_mx: 'The domain publishes a null MX record: it accepts no mail (RFC 7505).',
  no_mail_server: 'The domain has no MX record and no address record to deliver mail to.',
  mailbox_not_found: 'The mail server says this mailbox does not exist.',
  mailbox_disabled: 'The mail server says this mailbox is disabled.',
  mailbox_full: 'The mailbox is full and cannot take new mail.',
  blocked_by_user_list: 'The address or its domain is on your block list.',
  accept_all: 'The mail server accepts every address of this domain, so this mailbox cannot be confirmed.',
  greylisted: 'The mail server kept deferring the check (greylisting); try again later.',
  verifier_blocked: 'The mail server refused to talk to the verifier (policy or blocklist); the mailbox was not judged.',
  smtp_timeout: 'The mail server did not answer in time.',
  connection_failed: 'The mail server could not be reached (connection refused or reset).',
  dns_error: 'The domain could not be looked up (DNS server failure or timeout).',
  service_unavailable: 'The mail server was temporarily unavailable.',
  smtp_error: 'The mail server gave an answer that could not be interpreted.',
};

export type TVerdictInput = {
  status: TVerificationStatus;
  reason: TReasonCode;
  disposable: boolean;
  free: boolean;
  role: boolean;
  gibberish: boolean;
  greylistCount: number;
  provider: string | null;
};

/** Base deliverability by outcome, before the flags are applied. */
const BASE_SCORE: Partial<Record<TReasonCode, number>> = {
  valid_mailbox: 0.95,
  allowed_by_user_list: 0.9,
  accept_all: 0.6,
  greylisted: 0.45,
  verifier_blocked: 0.4,
  service_unavailable: 0.4,
  smtp_timeout: 0.35,
  connection_failed: 0.3,
  smtp_error: 0.3,
  dns_error: 0.25,
  mailbox_full: 0.05,
};

/** Multipliers applied for each flag that is set. */
export const FLAG_FACTORS = { disposable: 0.2, role: 0.8, gibberish: 0.6, free: 0.97, greylisted: 0.95 } as const;

/**
 * Scoring (documented in README.md):
 * score = base(reason) × 0.2 if disposable × 0.8 if role × 0.6 if gibberish × 0.97 if free × 0.95 if it was greylisted,
 * rounded to 2 decimals; invalid outcomes other than mailbox_full have base 0.
 * safe_to_send: no = invalid or disposable or block-listed; yes = valid (or allow-listed) and neither role nor gibberish;
 * risky = everything else (catch-all, unknown, role, gibberish).
 */
export function computeVerdict(input: TVerdictInput): { safe_to_send: TSafeToSend; deliverability_score: number; ai_verdict: string } {
  let score = BASE_SCORE[input.reason] ?? (input.status === 'invalid' ? 0 : 0.3);
  if (input.reason !== 'allowed_by_user_list') {
    if (input.disposable) score *= FLAG_FACTORS.disposable;
    if (input.role) score *= FLAG_FACTORS.role;
    if (input.gibberish) score *= FLAG_FACTORS.gibberish;
    if (input.free) score *= FLAG_FACTORS.free;
    if (input.greylistCount > 0) score *= FLAG_FACTORS.greylisted;
  }
  const deliverability_score = Math.round(score * 100) / 100;

  let safe: TSafeToSend;
  if (input.reason === 'allowed_by_user_list') safe = 'yes';
  else if (input.status === 'invalid' || input.disposable) safe = 'no';
  else if (input.status === 'valid' && !input.role && !input.gibberish) safe = 'yes';
  else safe = 'risky';

  const notes: string[] = [];
  if (input.disposable) notes.push('a disposable address');
  if (input.role) notes.push('a role address');
  if (input.gibberish) notes.push('a random-looking name');
  if (input.free) notes.push('a free mailbox');
  const at = input.provider ? ` at ${input.provider}` : '';
  let head: string;
  switch (input.status) {
    case 'valid':
      head = input.reason === 'allowed_by_user_list' ? 'Allowed by your list' : `Deliverable: the mailbox exists${at}`;
      break;
    case 'invalid':
      head = `Undeliverable: ${REASON_TEXTS[input.reason].replace(/\.$/, '').replace(/^The /, 'the ')}`;
      break;
    case 'catch_all':
      head = `Risky: the server${at} accepts any address, so this one cannot be confirmed`;
      break;
    default:
      head = `Unknown: ${REASON_TEXTS[input.reason].replace(/\.$/, '').replace(/^The /, 'the ')}`;
  }
  const tail = notes.length > 0 ? `; ${notes.join(', ')}` : '';
  const advice = safe === 'yes' ? 'safe to send' : safe === 'no' ? 'do not send' : 'send with care';
  return { safe_to_send: safe, deliverability_score, ai_verdict: `${head}${tail} — ${advice}.` };
}
