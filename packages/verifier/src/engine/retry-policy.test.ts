import { describe, expect, it } from 'vitest';
import type { TMailHost } from '../dns/resolve-mail-hosts';
import type { TSmtpReply } from '../smtp/classify-reply';
import type { TVerificationMode } from '../types';
import { DEFAULT_GREYLIST_SCHEDULE, DEFAULT_TIMEOUTS } from './options';
import { gateFeedback, isLoadDeferral, judgeAnswer, mailRefusedAttempt, nextStep, recipientAttempt, type TAttempt } from './retry-policy';

// The retry and greylisting policy as a table, without sockets or timers: a host's reply (to RCPT TO, or to MAIL FROM),
// the catch-all probe's reply beside it, how the transaction went, which attempt of its kind this was, the mode's
// greylist schedule and the caller's greylisting choice -> what the verification does next.

const HOST: TMailHost = { exchange: 'mx.example.test', preference: 10, addresses: ['192.0.2.1'] };

/** '550 5.1.1 User unknown' as the session reads it. */
function reply(line: string): TSmtpReply {
  const [code = '', ...words] = line.split(' ');
  const enhanced = /^\d\.\d{1,3}\.\d{1,3}$/.test(words[0] ?? '') ? (words[0] as string) : null;
  return { code: Number(code), enhanced, text: words.join(' '), lines: [line] };
}

type TRow = {
  /** the reply to RCPT TO (or to MAIL FROM when `at` says so) */
  reply: string;
  at?: 'RCPT' | 'MAIL FROM';
  /** the domain's catch-all probe's reply in the same transaction */
  probe?: string;
  /** the host turned a new session away (postscreen), or cut the session with a 421 */
  turn?: 'fresh' | 'cut';
  /** this is the n-th attempt of its kind (n - 1 retries of each kind were taken before it) */
  attempt: number;
  mode: TVerificationMode;
  greylisting: 'wait' | 'defer' | 'last';
  /** `status/reason` (final), `wait <ms>`, or `again` (at once, on a new session) */
  decision: string;
};

function decide(row: TRow): string {
  const turn = { freshTurnedAway: row.turn === 'fresh', cut: row.turn === 'cut', failureMessage: null };
  const attempt: TAttempt =
    row.at === 'MAIL FROM'
      ? mailRefusedAttempt(reply(row.reply), HOST)
      : recipientAttempt({ rcpt: reply(row.reply), probe: row.probe ? reply(row.probe) : undefined, control: undefined, knownPerRecipient: false }, turn, HOST);
  if (attempt.type === 'failed') return `unknown/${attempt.reason}`;
  if (attempt.type === 'answer') {
    const judgement = judgeAnswer(attempt, null);
    if (judgement.type === 'final') return `${judgement.outcome.status}/${judgement.outcome.reason}`;
    if (judgement.type === 'ask_cache') return 'ask the cache';
  }
  const taken = row.attempt - 1;
  const count = { greylistCount: taken, scheduleIndex: taken, newSessionRetries: taken, busyRetries: taken };
  const step = nextStep(attempt, count, { schedule: DEFAULT_GREYLIST_SCHEDULE[row.mode], greylisting: row.greylisting, now: 0, deadline: DEFAULT_TIMEOUTS[row.mode].totalMs });
  if (step.type === 'wait') return `wait ${step.ms}`;
  if (step.type === 'again') return 'again';
  return `${step.outcome.status}/${step.outcome.reason}`;
}

const HA = 'highest_accuracy' as const;
const FT = 'fastest_turnaround' as const;

// prettier-ignore
const rows: TRow[] = [
  // final answers, whatever the attempt
  { reply: '250 2.1.5 Recipient OK', probe: '550 5.1.1 User unknown', attempt: 1, mode: HA, greylisting: 'wait', decision: 'valid/valid_mailbox' },
  { reply: '250 2.1.5 Recipient OK', probe: '250 2.1.5 Recipient OK', attempt: 1, mode: HA, greylisting: 'wait', decision: 'catch_all/accept_all' },
  { reply: '250 2.1.5 Recipient OK', attempt: 1, mode: HA, greylisting: 'wait', decision: 'ask the cache' },
  { reply: '550 5.1.1 User unknown', attempt: 1, mode: HA, greylisting: 'wait', decision: 'invalid/mailbox_not_found' },
  { reply: '550 No such user here', attempt: 2, mode: FT, greylisting: 'wait', decision: 'invalid/mailbox_not_found' },
  { reply: '550 5.2.1 Mailbox disabled', attempt: 1, mode: HA, greylisting: 'wait', decision: 'invalid/mailbox_disabled' },
  { reply: '552 5.2.2 Mailbox full', attempt: 1, mode: HA, greylisting: 'wait', decision: 'invalid/mailbox_full' },
  { reply: '550 5.4.1 Recipient address rejected: Access denied', attempt: 1, mode: HA, greylisting: 'wait', decision: 'invalid/mailbox_not_found' },
  { reply: '550 5.7.1 Service unavailable; Client host blocked using zen.spamhaus.org', attempt: 1, mode: HA, greylisting: 'wait', decision: 'unknown/verifier_blocked' },
  { reply: '550 5.7.1 Access denied', attempt: 1, mode: HA, greylisting: 'wait', decision: 'unknown/verifier_blocked' },
  { reply: '554 Transaction failed', attempt: 1, mode: HA, greylisting: 'wait', decision: 'unknown/smtp_error' },
  // greylisting: the mode's schedule, then unknown; defer and last never wait
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 1, mode: HA, greylisting: 'wait', decision: 'wait 60000' },
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 2, mode: HA, greylisting: 'wait', decision: 'wait 180000' },
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 3, mode: HA, greylisting: 'wait', decision: 'wait 420000' },
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 4, mode: HA, greylisting: 'wait', decision: 'unknown/greylisted' },
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 1, mode: FT, greylisting: 'wait', decision: 'wait 15000' },
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 2, mode: FT, greylisting: 'wait', decision: 'unknown/greylisted' },
  { reply: '451 Try again later', attempt: 1, mode: FT, greylisting: 'wait', decision: 'wait 15000' },
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 1, mode: HA, greylisting: 'defer', decision: 'unknown/greylisted' },
  { reply: '450 4.7.1 Greylisted, try again later', attempt: 1, mode: HA, greylisting: 'last', decision: 'unknown/greylisted' },
  // an accepted recipient whose catch-all probe is deferred: retried to learn the domain, valid once no retry is left
  { reply: '250 2.1.5 OK', probe: '450 4.7.1 Greylisted', attempt: 1, mode: HA, greylisting: 'wait', decision: 'wait 60000' },
  { reply: '250 2.1.5 OK', probe: '450 4.7.1 Greylisted', attempt: 4, mode: HA, greylisting: 'wait', decision: 'valid/valid_mailbox' },
  { reply: '250 2.1.5 OK', probe: '450 4.7.1 Greylisted', attempt: 1, mode: HA, greylisting: 'last', decision: 'valid/valid_mailbox' },
  { reply: '250 2.1.5 OK', probe: '450 4.7.1 Greylisted', attempt: 1, mode: HA, greylisting: 'defer', decision: 'unknown/greylisted' },
  // the host unavailable: the schedule, then unknown / service_unavailable (never greylisting's defer)
  { reply: '421 4.3.2 Service shutting down', attempt: 1, mode: HA, greylisting: 'defer', decision: 'wait 60000' },
  { reply: '450 4.4.5 Insufficient system storage', attempt: 2, mode: FT, greylisting: 'wait', decision: 'unknown/service_unavailable' },
  // too many recipients, postscreen and cuts: again at once on a new session, three times
  { reply: '452 4.5.3 Too many recipients', attempt: 1, mode: HA, greylisting: 'wait', decision: 'again' },
  { reply: '250 2.1.5 OK', probe: '452 4.5.3 Too many recipients', attempt: 3, mode: HA, greylisting: 'wait', decision: 'again' },
  { reply: '452 4.5.3 Too many recipients', attempt: 4, mode: FT, greylisting: 'wait', decision: 'unknown/service_unavailable' },
  { reply: '450 4.3.2 Service currently unavailable', turn: 'fresh', attempt: 1, mode: HA, greylisting: 'wait', decision: 'again' },
  { reply: '421 4.7.0 Error: too many errors', turn: 'cut', attempt: 2, mode: HA, greylisting: 'wait', decision: 'again' },
  // MAIL FROM refused: every recipient of the transaction
  { at: 'MAIL FROM', reply: '451 4.7.1 Greylisted', attempt: 1, mode: HA, greylisting: 'wait', decision: 'wait 60000' },
  { at: 'MAIL FROM', reply: '421 4.3.2 Too busy', attempt: 1, mode: FT, greylisting: 'defer', decision: 'wait 15000' },
  { at: 'MAIL FROM', reply: '550 5.7.1 Sender rejected by policy', attempt: 1, mode: HA, greylisting: 'wait', decision: 'unknown/verifier_blocked' },
  { at: 'MAIL FROM', reply: '501 Syntax error', attempt: 1, mode: HA, greylisting: 'wait', decision: 'unknown/smtp_error' },
];

describe('retry and greylisting policy', () => {
  it.each(rows)('$at $reply (probe: $probe, $turn) attempt $attempt, $mode, $greylisting -> $decision', (row) => {
    expect(decide(row)).toBe(row.decision);
  });

  it('waits only when the wait ends before the deadline (else gives the verdict of the last attempt)', () => {
    const greylisted = recipientAttempt({ rcpt: reply('450 4.7.1 Greylisted'), probe: undefined, control: undefined, knownPerRecipient: false }, { freshTurnedAway: false, cut: false, failureMessage: null }, HOST);
    if (greylisted.type === 'failed') throw new Error('a greylisted recipient is retried');
    const count = { greylistCount: 0, scheduleIndex: 0, newSessionRetries: 0, busyRetries: 0 };
    const terms = { schedule: [60_000], greylisting: 'wait' as const, now: 1_000 };
    expect(nextStep(greylisted, count, { ...terms, deadline: 61_000 })).toMatchObject({ type: 'wait', ms: 60_000, count: { greylistCount: 1, scheduleIndex: 1 } });
    expect(nextStep(greylisted, count, { ...terms, deadline: 60_999 })).toMatchObject({ type: 'stop', outcome: { status: 'unknown', reason: 'greylisted' }, count: { greylistCount: 1 } });
  });

  it('backs off from a busy host on its own schedule, within the deadline', () => {
    const busy: TAttempt = { type: 'retry', why: 'busy', host: HOST, replyText: '421 4.7.0 Too many connections' };
    const terms = { schedule: [60_000], greylisting: 'wait' as const, now: 0, deadline: 900_000 };
    const steps = [0, 1, 2, 3, 4].map((busyRetries) => nextStep(busy, { greylistCount: 0, scheduleIndex: 0, newSessionRetries: 0, busyRetries }, terms));
    expect(steps.map((s) => (s.type === 'wait' ? s.ms : s.type))).toEqual([500, 1_000, 2_000, 4_000, 8_000]);
    // back-offs used up: the greylist schedule's first wait, as service_unavailable
    expect(nextStep(busy, { greylistCount: 0, scheduleIndex: 0, newSessionRetries: 0, busyRetries: 5 }, terms)).toMatchObject({ type: 'wait', ms: 60_000, count: { greylistCount: 0 } });
    // no back-off ends before the deadline, nor the schedule's wait: unknown at once
    expect(nextStep(busy, { greylistCount: 0, scheduleIndex: 0, newSessionRetries: 0, busyRetries: 0 }, { ...terms, deadline: 499 })).toMatchObject({ type: 'stop', outcome: { status: 'unknown', reason: 'service_unavailable' } });
  });

  const answer: TAttempt = { type: 'answer', rcpt: { kind: 'accepted' }, directoryMiss: false, probe: null, control: null, knownPerRecipient: false, host: HOST, replyText: '250 OK' };
  const retry = (why: 'greylisted' | 'service_unavailable' | 'new_session', replyText: string): TAttempt => ({ type: 'retry', why, host: HOST, replyText });
  // prettier-ignore
  const feedback: Array<[string, TAttempt, boolean, ReturnType<typeof gateFeedback>]> = [
    ['an answer', answer, false, 'reward'],
    ['a host unavailable', retry('service_unavailable', '421 4.3.2 Too busy'), false, 'penalize'],
    ['a deferral worded as load (4.3.x)', retry('greylisted', '451 4.3.0 Try later'), false, 'penalize'],
    ['a deferral without an enhanced code', retry('greylisted', '451 Try later'), false, 'penalize'],
    ['per-recipient greylisting (4.7.x)', retry('greylisted', '450 4.7.1 Greylisted'), false, 'none'],
    ['a retry on a new session', retry('new_session', '452 4.5.3 Too many recipients'), false, 'none'],
    ['an answer beside a rate-limit reply', answer, true, 'none'],
  ];
  it.each(feedback)('tells the host gate after %s', (_, attempt, rateLimited, expected) => {
    expect(gateFeedback([attempt], rateLimited)).toBe(expected);
  });

  it('tells load deferrals from greylisting by the enhanced code', () => {
    expect([isLoadDeferral('451 4.3.0 x'), isLoadDeferral('451 4.4.1 x'), isLoadDeferral('451 x'), isLoadDeferral('450 4.7.1 x'), isLoadDeferral('450 4.2.0 x')]).toEqual([true, true, true, false, false]);
  });
});
