import type { TMailHost } from '../dns/resolve-mail-hosts';
import { classifyReply, isDirectoryMiss, type TReplyClass, type TSmtpReply } from '../smtp/classify-reply';
import type { TRecipientReplies } from '../smtp/smtp-transaction';
import type { TReasonCode, TVerificationStatus } from '../types';
import type { TDomainLesson } from './catch-all';
import { REASON_TEXTS } from './verdict';

// The retry and greylisting policy, as pure functions: what each reply means for its recipient (an answer, a retry
// and why, a failure), whether an answer is final, and what the verification does next (again at once, wait, or
// stop with an outcome). No socket, no timer, no cache: the engine reads and writes those, and asks these.

export const MAX_NEW_SESSION_RETRIES = 3;
/** Back-off before trying a host again that answered 421 to a new connection (too many connections, busy). */
export const BUSY_RETRY_MS = [500, 1_000, 2_000, 4_000, 8_000];

export type TOutcome = { status: TVerificationStatus; reason: TReasonCode; text?: string };

/** One SMTP attempt over the MX hosts (with failover). */
export type TAttempt =
  | {
      type: 'answer';
      rcpt: TReplyClass;
      /** Exchange Online's 5.4.1 "Access denied" to RCPT after an accepted MAIL FROM (isDirectoryMiss) */
      directoryMiss: boolean;
      probe: TReplyClass | null;
      control: TReplyClass | null;
      /** the domain was already known to deny per recipient when the transaction ran (no control was needed) */
      knownPerRecipient: boolean;
      host: TMailHost;
      replyText: string;
    }
  | { type: 'retry'; why: 'greylisted' | 'service_unavailable' | 'new_session' | 'busy'; host: TMailHost | null; replyText: string }
  | { type: 'failed'; reason: TReasonCode; host: TMailHost | null; text: string };

/** The attempt of a recipient that was not asked (see smtp-transaction.ts). */
export function skippedAttempt(why: 'cancelled' | 'no_smtputf8', host: TMailHost): TAttempt {
  // a cancelled call has already rejected, so this answer is never read
  if (why === 'cancelled') return { type: 'failed', reason: 'smtp_error', host, text: 'The verification was cancelled.' };
  return { type: 'failed', reason: 'smtp_error', host, text: 'The address has a UTF-8 local part but the mail server does not support SMTPUTF8 (RFC 6531): no compliant sender can deliver to it there, and it cannot be checked.' };
}

/** The attempt of every recipient of a transaction whose MAIL FROM was refused. */
export function mailRefusedAttempt(mail: TSmtpReply, host: TMailHost): TAttempt {
  const kind = classifyReply(mail).kind;
  const text = mail.lines.join(' ');
  if (kind === 'greylisted') return { type: 'retry', why: 'greylisted', host, replyText: text };
  if (kind === 'unavailable' || kind === 'too_many_recipients') return { type: 'retry', why: 'service_unavailable', host, replyText: text };
  if (kind === 'blocked' || kind === 'denied') return { type: 'failed', reason: 'verifier_blocked', host, text: `${REASON_TEXTS.verifier_blocked} Server reply: ${text}` };
  return { type: 'failed', reason: 'smtp_error', host, text: `${REASON_TEXTS.smtp_error} Server reply to MAIL FROM: ${text}` };
}

/** How the transaction that asked a recipient went as a whole (smtp-transaction.ts). */
export type TTransactionTurn = { freshTurnedAway: boolean; cut: boolean; failureMessage: string | null };

/** The attempt of a recipient asked in a transaction whose MAIL FROM was accepted. */
export function recipientAttempt(replies: TRecipientReplies, turn: TTransactionTurn, host: TMailHost): TAttempt {
  const reply = replies.rcpt;
  if (!reply) return { type: 'retry', why: 'new_session', host, replyText: turn.failureMessage ?? 'the session ended before this recipient was answered' };
  const text = reply.lines.join(' ');
  const rcpt = classifyReply(reply);
  const probe = replies.probe ? classifyReply(replies.probe) : null;
  // postscreen-style: a new client's first connection is turned away ("service currently unavailable"); the next
  // connection is let through, so retry at once on a new session rather than on the greylist schedule
  if (turn.freshTurnedAway) return { type: 'retry', why: 'new_session', host, replyText: text };
  if (turn.cut && rcpt.kind === 'unavailable') return { type: 'retry', why: 'new_session', host, replyText: text };
  if (rcpt.kind === 'too_many_recipients' || (rcpt.kind === 'accepted' && probe?.kind === 'too_many_recipients')) return { type: 'retry', why: 'new_session', host, replyText: text };
  if (rcpt.kind === 'unavailable') return { type: 'retry', why: 'service_unavailable', host, replyText: text };
  if (rcpt.kind === 'greylisted') return { type: 'retry', why: 'greylisted', host, replyText: text };
  const control = rcpt.kind === 'denied' && replies.control ? classifyReply(replies.control) : null;
  return { type: 'answer', rcpt, directoryMiss: isDirectoryMiss(reply), probe: rcpt.kind === 'accepted' ? probe : null, control, knownPerRecipient: replies.knownPerRecipient, host, replyText: text };
}

/**
 * A 4xx deferral that signals load rather than per-recipient greylisting: no enhanced code, or x.3.x (mail system)
 * / x.4.x (network). Greylisting (4.7.x, 4.2.x, 4.1.x) is per (client, sender, recipient) triplet, so it does not
 * slow the whole host down.
 */
export function isLoadDeferral(replyText: string): boolean {
  const match = /^\d{3}[ -]4\.(\d{1,3})\./.exec(replyText);
  return !match || match[1] === '3' || match[1] === '4';
}

/** What a transaction's attempts tell the host's gate: slow down on load deferrals, speed up on answers. */
export function gateFeedback(attempts: TAttempt[], rateLimitedMeanwhile: boolean): 'penalize' | 'reward' | 'none' {
  // a rate-limit reply has slowed the host down already (smtp-transaction.ts): no reward for the answers beside it
  if (rateLimitedMeanwhile) return 'none';
  if (attempts.some((a) => a.type === 'retry' && a.why !== 'new_session' && (a.why !== 'greylisted' || isLoadDeferral(a.replyText)))) return 'penalize';
  if (attempts.some((a) => a.type === 'answer')) return 'reward';
  return 'none';
}

/** Fail over to the next address / MX host on refused or timed-out connections and on 421-style unavailability. */
export function failsOver(attempt: TAttempt): boolean {
  return (
    (attempt.type === 'failed' && (attempt.reason === 'smtp_timeout' || attempt.reason === 'connection_failed')) ||
    (attempt.type === 'retry' && (attempt.why === 'service_unavailable' || attempt.why === 'busy'))
  );
}

export const CATCH_ALL: TOutcome = { status: 'catch_all', reason: 'accept_all' };
export const VALID: TOutcome = { status: 'valid', reason: 'valid_mailbox' };

/**
 * An answered attempt judged: a final outcome (with what it taught about the domain), a retry (temporary replies),
 * or `ask_cache` when the transaction carried no probe because the domain's catch-all status was learned meanwhile
 * (the caller reads it, then `CATCH_ALL` or `VALID`).
 */
export type TJudgement = { type: 'final'; outcome: TOutcome; lesson: TDomainLesson } | { type: 'retry' } | { type: 'ask_cache' };

export function judgeAnswer(attempt: Extract<TAttempt, { type: 'answer' }>, knownCatchAll: boolean | null): TJudgement {
  const { rcpt, probe, control, replyText } = attempt;
  const final = (outcome: TOutcome, lesson: TDomainLesson = {}): TJudgement => ({ type: 'final', outcome, lesson });
  const withReply = (reason: TReasonCode): string => `${REASON_TEXTS[reason]} Server reply: ${replyText}`;
  switch (rcpt.kind) {
    case 'rejected':
      return final({ status: 'invalid', reason: rcpt.reason, text: withReply(rcpt.reason) });
    case 'blocked':
      return final({ status: 'unknown', reason: 'verifier_blocked', text: withReply('verifier_blocked') });
    case 'denied': {
      // Judged against the session: a known-good recipient accepted on the same host means this denial is per
      // recipient (no such mailbox); the same denial for the known-good one too means the verifier is blocked.
      const perRecipient = 'A known-good recipient was accepted in the same session, so this rejection is about the recipient.';
      if (attempt.directoryMiss) {
        return final({
          status: 'invalid',
          reason: 'mailbox_not_found',
          text: `${withReply('mailbox_not_found')} Exchange Online answers 5.4.1 "Access denied" to RCPT, after accepting the sender, for a recipient not in the organisation's directory (a blocked sender is refused with 5.7.6xx at the connection or MAIL FROM).`,
        });
      }
      if (attempt.knownPerRecipient) return final({ status: 'invalid', reason: 'mailbox_not_found', text: `${withReply('mailbox_not_found')} ${perRecipient}` });
      if (control?.kind === 'accepted') return final({ status: 'invalid', reason: 'mailbox_not_found', text: `${withReply('mailbox_not_found')} ${perRecipient}` }, { perRecipientDenier: true });
      if (control && (control.kind === 'greylisted' || control.kind === 'unavailable' || control.kind === 'too_many_recipients')) return { type: 'retry' };
      return final({
        status: 'unknown',
        reason: 'verifier_blocked',
        text: `${withReply('verifier_blocked')} The host gave the same refusal to a recipient that must exist (postmaster), so it refuses the verifier, not the mailbox.`,
      });
    }
    case 'error':
      return final({ status: 'unknown', reason: 'smtp_error', text: withReply('smtp_error') });
    case 'accepted': {
      if (knownCatchAll !== null) return final(knownCatchAll ? CATCH_ALL : VALID);
      // no probe in the transaction: the domain's status was learned meanwhile (or it needs none)
      if (!probe) return { type: 'ask_cache' };
      if (probe.kind === 'accepted') return final(CATCH_ALL, { catchAll: true });
      // a host that accepts this recipient and denies the random one denies per recipient
      if (probe.kind === 'rejected' || probe.kind === 'blocked' || probe.kind === 'denied' || probe.kind === 'error') return final(VALID, probe.kind === 'denied' ? { catchAll: false, perRecipientDenier: true } : { catchAll: false });
      return { type: 'retry' }; // the probe was deferred: retry to learn whether the domain accepts all
    }
    default:
      return { type: 'retry' };
  }
}

/** How many times each kind of retry has been taken so far in one verification. */
export type TRetryCount = { greylistCount: number; scheduleIndex: number; newSessionRetries: number; busyRetries: number };
export const NO_RETRIES: TRetryCount = { greylistCount: 0, scheduleIndex: 0, newSessionRetries: 0, busyRetries: 0 };

/** The verification's own terms: its greylist schedule and choice, and where it stands on its clock. */
export type TRetryTerms = { schedule: number[]; greylisting: 'wait' | 'defer' | 'last'; now: number; deadline: number };

/** What the verification does after an attempt that was not final: ask again at once, wait first, or stop. */
export type TNextStep = { type: 'again'; count: TRetryCount } | { type: 'wait'; ms: number; count: TRetryCount } | { type: 'stop'; outcome: TOutcome; count: TRetryCount };

/** The next step after an attempt that needs a retry (a `retry`, or an `answer` judged `retry`). */
export function nextStep(attempt: Exclude<TAttempt, { type: 'failed' }>, count: TRetryCount, terms: TRetryTerms): TNextStep {
  const why = attempt.type === 'retry' ? attempt.why : 'greylisted';
  if (why === 'new_session' && count.newSessionRetries < MAX_NEW_SESSION_RETRIES) return { type: 'again', count: { ...count, newSessionRetries: count.newSessionRetries + 1 } };
  const busyDelay = BUSY_RETRY_MS[count.busyRetries];
  // the host turned a new connection away (421: too many connections / busy): come back after a back-off
  if (why === 'busy' && busyDelay !== undefined && terms.now + busyDelay <= terms.deadline) return { type: 'wait', ms: busyDelay, count: { ...count, busyRetries: count.busyRetries + 1 } };
  const next = why === 'greylisted' ? { ...count, greylistCount: count.greylistCount + 1 } : { ...count };
  const accepted = attempt.type === 'answer' && attempt.rcpt.kind === 'accepted';
  if (why === 'greylisted' && terms.greylisting !== 'wait') {
    // the caller re-checks later (defer) or this was its last re-check (last): no wait inside the call
    if (terms.greylisting === 'last' && accepted) return { type: 'stop', outcome: VALID, count: next };
    const text = terms.greylisting === 'defer' ? `${REASON_TEXTS.greylisted} A re-check is due later. Last reply: ${attempt.replyText}` : `${REASON_TEXTS.greylisted} Last reply: ${attempt.replyText}`;
    return { type: 'stop', outcome: { status: 'unknown', reason: 'greylisted', text }, count: next };
  }
  const delay = terms.schedule[next.scheduleIndex];
  next.scheduleIndex++;
  const reason: TReasonCode = why === 'greylisted' ? 'greylisted' : 'service_unavailable';
  if (delay === undefined || terms.now + delay > terms.deadline) {
    // an accepted recipient whose catch-all probe never got a final answer is still a confirmed mailbox
    if (accepted) return { type: 'stop', outcome: VALID, count: next };
    return { type: 'stop', outcome: { status: 'unknown', reason, text: `${REASON_TEXTS[reason]} Last reply: ${attempt.replyText}` }, count: next };
  }
  return { type: 'wait', ms: delay, count: next };
}
