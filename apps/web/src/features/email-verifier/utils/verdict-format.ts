import type { TVerificationStatus, TVerifyListState } from '@verilead/contracts';
import { getScoreLabel, humanizeKey } from '../../../lib/format';

type TBadgeLook = { label: string; color: string };

/** Status badge wording and colour: valid green, invalid red, catch-all orange, unknown grey. */
export const STATUS_LOOKS: Record<TVerificationStatus, TBadgeLook & { description: string }> = {
  valid: { label: 'Valid', color: 'teal', description: 'The mailbox exists and accepts mail.' },
  invalid: { label: 'Invalid', color: 'red', description: 'Mail to this address will bounce.' },
  catch_all: { label: 'Catch-all', color: 'orange', description: 'The domain accepts every address, so this one cannot be confirmed.' },
  unknown: { label: 'Unknown', color: 'gray', description: 'The mail server did not give a clear answer. Not billed.' },
};

export const LIST_STATE_LOOKS: Record<TVerifyListState, TBadgeLook> = {
  verified: { label: 'Verified', color: 'teal' },
  non_verified: { label: 'Not verified', color: 'gray' },
  in_progress: { label: 'In progress', color: 'indigo' },
  cancelled: { label: 'Cancelled', color: 'orange' },
};

export type TSafeToSendValue = 'yes' | 'risky' | 'no';
export const SAFE_TO_SEND_LOOKS: Record<TSafeToSendValue, TBadgeLook> = {
  yes: { label: 'Safe to send', color: 'teal' },
  risky: { label: 'Send with care', color: 'orange' },
  no: { label: 'Do not send', color: 'red' },
};

/** The look of any safe-to-send value (booleans and unexpected strings included). */
export function getSafeToSendLook(value: string | boolean | null | undefined): TBadgeLook {
  if (value === true || value === 'yes') return SAFE_TO_SEND_LOOKS.yes;
  if (value === false || value === 'no') return SAFE_TO_SEND_LOOKS.no;
  if (value === 'risky') return SAFE_TO_SEND_LOOKS.risky;
  return { label: value ? humanizeKey(String(value)) : '-', color: 'gray' };
}

/** A 0–1 deliverability score as a whole percent (0–100), clamped. */
export function toScorePercent(score: number | null | undefined): number {
  if (score === null || score === undefined || !Number.isFinite(score)) return 0;
  return Math.round(Math.min(1, Math.max(0, score)) * 100);
}

/** Ring colour for a score percent: the spec's score labels mapped to red → green. */
export function getScoreColor(percent: number): string {
  const label = getScoreLabel(percent);
  if (label === 'High') return 'teal';
  if (label === 'Moderate') return 'lime';
  if (label === 'Low') return 'orange';
  return 'red';
}

/** Time taken in ms as "850 ms", "2.4 s" or "1 min 5 s". */
export function formatTimeTaken(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '-';
  if (milliseconds < 1_000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1_000).toFixed(1).replace(/\.0$/, '')} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  const seconds = Math.round((milliseconds % 60_000) / 1_000);
  return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** Plain words for reason codes, used when the server sends a code without its text. */
const REASON_WORDS: Record<string, string> = {
  valid_mailbox: 'The mail server accepted this mailbox.',
  allowed_by_user_list: 'The address or its domain is on your allow list.',
  invalid_syntax: 'The address is not written correctly.',
  domain_not_found: 'The domain does not exist.',
  null_mx: 'The domain says it accepts no mail.',
  no_mail_server: 'The domain has no mail server.',
  mailbox_not_found: 'The mailbox does not exist.',
  mailbox_disabled: 'The mailbox is disabled.',
  mailbox_full: 'The mailbox is full.',
  blocked_by_user_list: 'The address or its domain is on your block list.',
  accept_all: 'The mail server accepts every address of this domain.',
  greylisted: 'The mail server kept deferring the check (greylisting).',
  verifier_blocked: 'The mail server refused the check (policy block).',
  smtp_timeout: 'The mail server did not answer in time.',
  connection_failed: 'The mail server could not be reached.',
  dns_error: 'The domain could not be looked up.',
  service_unavailable: 'The mail server was temporarily unavailable.',
  smtp_error: 'The mail server gave an answer that could not be read.',
};

/** The reason in plain words: the server's text when present, else the wording of its code. */
export function describeReason(reason: { code: string; text?: string | null } | string | null | undefined): string {
  if (!reason) return '-';
  if (typeof reason === 'string') return REASON_WORDS[reason] ?? humanizeKey(reason);
  if (reason.text && reason.text.trim() !== '') return reason.text;
  return REASON_WORDS[reason.code] ?? humanizeKey(reason.code);
}

export type TResultFlag = { key: 'disposable' | 'free_account' | 'role_account' | 'gibberish'; label: string; on: boolean; hint: string; color: string };

/** The four address flags, with what each means. */
export function listResultFlags(result: { disposable: boolean; free_account: boolean; role_account: boolean; gibberish: boolean }): TResultFlag[] {
  return [
    { key: 'disposable', label: 'Disposable', on: result.disposable, hint: 'A throw-away mailbox service.', color: 'red' },
    { key: 'free_account', label: 'Free account', on: result.free_account, hint: 'A free webmail provider (Gmail, Outlook…).', color: 'blue' },
    { key: 'role_account', label: 'Role account', on: result.role_account, hint: 'A shared address such as info@ or sales@.', color: 'yellow' },
    { key: 'gibberish', label: 'Gibberish', on: result.gibberish, hint: 'The name part looks randomly typed.', color: 'orange' },
  ];
}
