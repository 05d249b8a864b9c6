import { describe, expect, it } from 'vitest';
import { finderFigures, NO_SCORE, verifierFigures } from './usage-figures';

const EV = { total: 0, valid: 0, invalid: 0, catch_all: 0, unknown: 0, duplicate: 0, syntax_error: 0, disposable: 0, gibberish: 0, free_account: 0, role_account: 0, billable: 0, safe_to_send: 0, billable_credits: 0, deliverability_score: 0 };
const EF = { total: 0, found: 0, not_found: 0, business: 0, role: 0, billable: 0, confidence_score: 0 };

describe('dashboard usage figures', () => {
  it('shows no score, rather than 0%, for a period with nothing verified or found', () => {
    expect(verifierFigures(EV).deliverability).toEqual({ value: NO_SCORE, hint: 'Nothing verified in this period' });
    expect(verifierFigures({ ...EV, total: 3, invalid: 3 }).deliverability).toEqual({ value: NO_SCORE, hint: 'No valid address in this period' });
    expect(finderFigures(EF).confidence).toEqual({ value: NO_SCORE, hint: 'No address found in this period' });
  });

  it('shows the scores and counts of a period with results, in words that agree with the numbers', () => {
    const ev = verifierFigures({ ...EV, total: 12, valid: 4, invalid: 3, duplicate: 2, syntax_error: 1, safe_to_send: 4, deliverability_score: 95 });
    expect(ev).toEqual({ verified: { value: '9', hint: '4 valid, 3 invalid' }, deliverability: { value: '95%', hint: '4 safe to send' } });
    expect(finderFigures({ ...EF, total: 1, found: 1, confidence_score: 99 })).toEqual({ found: { value: '1', hint: 'of 1 search' }, confidence: { value: '99', hint: 'Average score of found emails' } });
    expect(finderFigures({ ...EF, total: 1200, found: 0 }).found.hint).toBe('of 1,200 searches');
  });
});
