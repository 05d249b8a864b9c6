import { describe, expect, it } from 'vitest';
import { isNonMailCommand } from '../smtp/smtp-session';
import { ERROR_BUDGET, HELD_BACK_MIN_MS, LAST_CALL_ROOM, NONMAIL_BUDGET, SessionBudget } from './session-budget';

describe('a session budget', () => {
  it('stays under the stock limits: Postfix delays from 10 errors, Exim drops after 10 non-mail commands', () => {
    expect(ERROR_BUDGET).toBeLessThan(10);
    expect(NONMAIL_BUDGET).toBeLessThan(10);
    for (const c of ['EHLO a.test', 'HELO a.test', 'STARTTLS', 'RSET', 'NOOP', 'VRFY x']) expect(isNonMailCommand(c), c).toBe(true);
    for (const c of ['MAIL FROM:<a@b.test>', 'RCPT TO:<a@b.test>', 'QUIT', 'DATA']) expect(isNonMailCommand(c), c).toBe(false);
  });

  it('gives a batch as many recipients as may still be refused, and retires the session with room for fewer than two refusals', () => {
    const budget = new SessionBudget();
    expect(ERROR_BUDGET).toBe(9); // Postfix holds back every reply once a session has made 10 errors
    expect(budget.recipientRoom({ errors: 0, nonMail: 1 })).toBe(9);
    expect(budget.recipientRoom({ errors: 5, nonMail: 3 })).toBe(4);
    expect(budget.isSpent({ errors: 7, nonMail: 3 })).toBe(false);
    expect(budget.isSpent({ errors: 8, nonMail: 3 })).toBe(true); // a batch of one left: a fresh session asks 9 at a time
    expect(budget.isSpent({ errors: 0, nonMail: 7 })).toBe(false); // one more RSET still fits
    expect(budget.isSpent({ errors: 0, nonMail: 8 })).toBe(true);
  });

  it("makes a session's batch its last call (QUIT pipelined behind it) with exactly two refusals left, once it has spent some", () => {
    const budget = new SessionBudget();
    expect(LAST_CALL_ROOM).toBe(2);
    expect(budget.isLastCall({ errors: 6, nonMail: 1 })).toBe(false); // room for 3: an ordinary batch
    expect(budget.isLastCall({ errors: 7, nonMail: 1 })).toBe(true);
    expect(budget.isLastCall({ errors: 8, nonMail: 1 })).toBe(false); // spent: it retires with a QUIT of its own
    expect(budget.isLastCall({ errors: 7, nonMail: 8 })).toBe(false); // no room for an RSET: spent too
    // a learned budget of 2: a session that has refused nothing yet takes ordinary batches (a fresh one may meet postscreen)
    const low = new SessionBudget({ errors: 2 });
    expect(low.isLastCall({ errors: 0, nonMail: 1 })).toBe(false);
    const four = new SessionBudget({ errors: 4 });
    expect(four.isLastCall({ errors: 2, nonMail: 1 })).toBe(true);
    // a host whose refusals need a control recipient (asked after the batch, never after a QUIT) gets none
    four.lastCalls = false;
    expect(four.isLastCall({ errors: 2, nonMail: 1 })).toBe(false);
  });

  it('learns from a cut only the counter that was high, two under it', () => {
    const budget = new SessionBudget();
    budget.learnCut({ errors: 5, nonMail: 3 });
    expect(budget).toMatchObject({ errors: 3, nonMail: 8, cuts: 1 });
    budget.learnCut({ errors: 1, nonMail: 6 });
    expect(budget).toMatchObject({ errors: 3, nonMail: 4, cuts: 2 });
    budget.learnCut({ errors: 1, nonMail: 1 }); // a cut with nothing spent teaches nothing
    expect(budget).toMatchObject({ errors: 3, nonMail: 4, cuts: 3 });
    budget.learnCut({ errors: 2, nonMail: 1 }); // nor a 421 after two refusals
    expect(budget).toMatchObject({ errors: 3, cuts: 4 });
  });

  it("learns a soft error limit under its budget from replies held back after errors (Postfix's smtpd_error_sleep_time), and nothing from a tarpit", () => {
    // smtpd_soft_error_limit 3: MAIL FROM and 9 recipients, every other one refused; the replies sent once the session
    // had made 3 errors (the last three) were held back a second each
    const codes = [250, 250, 550, 250, 550, 250, 550, 250, 550, 250];
    const soft3 = new SessionBudget();
    soft3.learnHeldBack(0, codes, 3_050);
    expect(soft3).toMatchObject({ errors: 2, heldBack: 1, tarpit: false });
    // a group answered in time teaches nothing
    const quick = new SessionBudget();
    quick.learnHeldBack(0, codes, HELD_BACK_MIN_MS - 1);
    expect(quick).toMatchObject({ errors: ERROR_BUDGET, heldBack: 0 });
    // a later group of a session already past the limit: held back from its first reply, at 4 errors
    const later = new SessionBudget();
    later.learnHeldBack(4, [250, 550, 250], 3_000);
    expect(later.errors).toBe(3);
    // a tarpit holds back every reply, errors or not: no error limit explains it, and the host teaches none later
    const tarpit = new SessionBudget();
    tarpit.learnHeldBack(0, [250, 250, 250, 250], 4_000);
    expect(tarpit).toMatchObject({ errors: ERROR_BUDGET, tarpit: true });
    tarpit.learnHeldBack(5, [250, 550], 2_000);
    expect(tarpit.errors).toBe(ERROR_BUDGET);
  });

  it('learns the strictest error limits too: a host that cuts at the 3rd error gets sessions of one refusal, at the 4th of two', () => {
    const third = new SessionBudget();
    third.learnCut({ errors: 3, nonMail: 1 });
    expect(third.errors).toBe(1);
    // a fresh session still takes a batch; one refusal spends it
    expect(third.isSpent({ errors: 0, nonMail: 1 })).toBe(false);
    expect(third.recipientRoom({ errors: 0, nonMail: 1 })).toBe(1);
    expect(third.isSpent({ errors: 1, nonMail: 1 })).toBe(true);
    const fourth = new SessionBudget();
    fourth.learnCut({ errors: 4, nonMail: 1 });
    expect(fourth.errors).toBe(2);
    expect(fourth.isSpent({ errors: 0, nonMail: 1 })).toBe(false);
    expect(fourth.isSpent({ errors: 1, nonMail: 1 })).toBe(true);
  });
});
