import { describe, expect, it } from 'vitest';
import { isNonMailCommand } from '../smtp/smtp-session';
import { ERROR_BUDGET, NONMAIL_BUDGET, SessionBudget } from './session-budget';

describe('a session budget', () => {
  it('stays under the stock limits: Postfix delays from 10 errors, Exim drops after 10 non-mail commands', () => {
    expect(ERROR_BUDGET).toBeLessThan(10);
    expect(NONMAIL_BUDGET).toBeLessThan(10);
    for (const c of ['EHLO a.test', 'HELO a.test', 'STARTTLS', 'RSET', 'NOOP', 'VRFY x']) expect(isNonMailCommand(c), c).toBe(true);
    for (const c of ['MAIL FROM:<a@b.test>', 'RCPT TO:<a@b.test>', 'QUIT', 'DATA']) expect(isNonMailCommand(c), c).toBe(false);
  });

  it('gives a batch as many recipients as may still be refused, and retires the session before either budget is spent', () => {
    const budget = new SessionBudget();
    expect(budget.recipientRoom({ errors: 0, nonMail: 1 })).toBe(8);
    expect(budget.recipientRoom({ errors: 5, nonMail: 3 })).toBe(3);
    expect(budget.isSpent({ errors: 6, nonMail: 3 })).toBe(false);
    expect(budget.isSpent({ errors: 7, nonMail: 3 })).toBe(true); // room for one refusal only: the probe may take it
    expect(budget.isSpent({ errors: 0, nonMail: 7 })).toBe(false); // one more RSET still fits
    expect(budget.isSpent({ errors: 0, nonMail: 8 })).toBe(true);
  });

  it('learns from a cut only the counter that was high, two under it', () => {
    const budget = new SessionBudget();
    budget.learnCut({ errors: 5, nonMail: 3 });
    expect(budget).toMatchObject({ errors: 3, nonMail: 8, cuts: 1 });
    budget.learnCut({ errors: 1, nonMail: 6 });
    expect(budget).toMatchObject({ errors: 3, nonMail: 4, cuts: 2 });
    budget.learnCut({ errors: 1, nonMail: 1 }); // a cut with nothing spent teaches nothing
    expect(budget).toMatchObject({ errors: 3, nonMail: 4, cuts: 3 });
  });
});
