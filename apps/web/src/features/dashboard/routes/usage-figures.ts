import type { TDashboardData } from '@verilead/contracts';
import { formatCount, formatNumber } from '../../../lib/format';

type TVerifier = NonNullable<TDashboardData['email_verifier']>;
type TFinder = NonNullable<TDashboardData['email_finder']>;
export type TFigure = { value: string; hint: string };

/** Shown for a score that has nothing to average yet ("0%" would read as a bad result). */
export const NO_SCORE = '–';

/** The dashboard's verifier figures: addresses that got a verdict, and the deliverability score over them. */
export function verifierFigures(ev: TVerifier): { verified: TFigure; deliverability: TFigure } {
  const verified = ev.total - ev.duplicate - ev.syntax_error;
  return {
    verified: { value: formatNumber(verified), hint: `${formatNumber(ev.valid)} valid, ${formatNumber(ev.invalid)} invalid` },
    deliverability:
      ev.valid > 0
        ? { value: `${ev.deliverability_score}%`, hint: `${formatNumber(ev.safe_to_send)} safe to send` }
        : { value: NO_SCORE, hint: verified > 0 ? 'No valid address in this period' : 'Nothing verified in this period' },
  };
}

/** The dashboard's finder figures: addresses found of the searches made, and their average confidence. */
export function finderFigures(ef: TFinder): { found: TFigure; confidence: TFigure } {
  return {
    found: { value: formatNumber(ef.found), hint: `of ${formatCount(ef.total, 'search', 'searches')}` },
    confidence: ef.found > 0 ? { value: String(ef.confidence_score), hint: 'Average score of found emails' } : { value: NO_SCORE, hint: 'No address found in this period' },
  };
}
