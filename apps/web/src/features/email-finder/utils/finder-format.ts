import type { TFinderListState, TFinderReasonCode, TFinderResult } from '@verilead/contracts';
import { getScoreLabel, humanizeKey } from '../../../lib/format';

type TLook = { label: string; color: string };

/** The confidence score (0–100) with the spec's score label: 1–30 Very Low, 31–60 Low, 61–80 Moderate, above 80 High. */
export function getConfidenceLook(score: number | null | undefined): TLook {
  const label = getScoreLabel(score);
  if (label === 'High') return { label, color: 'teal' };
  if (label === 'Moderate') return { label, color: 'lime' };
  if (label === 'Low') return { label, color: 'orange' };
  if (label === 'Very Low') return { label, color: 'red' };
  return { label: 'None', color: 'gray' };
}

export const FINDER_LIST_STATE_LOOKS: Record<TFinderListState, TLook> = {
  processed: { label: 'Processed', color: 'teal' },
  not_processed: { label: 'Not processed', color: 'gray' },
  in_progress: { label: 'In progress', color: 'indigo' },
  cancelled: { label: 'Cancelled', color: 'orange' },
};

const REASON_WORDS: Record<TFinderReasonCode, string> = {
  verified_valid: 'The mail server confirmed this mailbox.',
  catch_all_best_guess: 'The domain accepts every address, so this is the most likely address, not a confirmed one.',
  no_valid_candidate: 'The mail server rejected every likely address.',
  server_inconclusive: 'The mail server did not give a clear answer.',
  domain_not_mail_enabled: 'The domain does not receive e-mail.',
  strict_domain_rejected: 'Strict domain check is on and this domain accepts every address.',
  role_excluded: 'Only a role address was found and role addresses are excluded in your settings.',
  name_unusable: 'No address could be built from this name.',
};

/** The reason in plain words: the server's text first, else the wording of its code. */
export function describeFinderReason(reason: { code: string; text?: string | null } | null | undefined): string {
  if (!reason) return '-';
  if (reason.text && reason.text.trim() !== '') return reason.text;
  return (REASON_WORDS as Record<string, string | undefined>)[reason.code] ?? humanizeKey(reason.code);
}

export type TFinderFlag = { key: 'business' | 'role' | 'catch_all'; label: string; on: boolean; hint: string; color: string };

/** Business, role and catch-all flags of a result. */
export function listFinderFlags(result: Pick<TFinderResult, 'business' | 'role' | 'catch_all'>): TFinderFlag[] {
  return [
    { key: 'business', label: 'Business', on: result.business, hint: 'A company domain, not a free webmail provider.', color: 'indigo' },
    { key: 'role', label: 'Role address', on: result.role, hint: 'A shared address such as info@ or sales@.', color: 'yellow' },
    { key: 'catch_all', label: 'Catch-all', on: result.catch_all, hint: 'The domain accepts every address: a best guess.', color: 'orange' },
  ];
}

