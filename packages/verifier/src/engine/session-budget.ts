/**
 * A session's budget of refused replies and non-mail commands, kept below the stock limits of the common mail
 * servers so that no reply is ever delayed and no session is ever cut:
 *
 * - Postfix counts every 4xx/5xx reply of a session (RSET does not reset it): from smtpd_soft_error_limit (10) on it
 *   holds each reply back by smtpd_error_sleep_time (1 s), at smtpd_hard_error_limit (20) it hangs up with
 *   `421 4.7.0 Error: too many errors`;
 * - Exim drops a session after smtp_accept_max_nonmail (10) commands that are not MAIL/RCPT/DATA (RSET, NOOP, VRFY,
 *   HELO/EHLO, STARTTLS…): `too many nonmail commands`;
 * - Exchange and Sendmail have similar per-session counters (protocol errors, NOOP/VRFY/HELO counts).
 *
 * A session is asked about at most as many recipients as it may still see refused (every recipient of a batch may be
 * unknown), and it retires with QUIT once either budget is spent, so the unknown addresses of a list are spread over
 * sessions instead of piling up in one. A host that cuts a session anyway (a 421 in mid-session: Postfix's `too many
 * errors`, Exim's `Too many nonmail commands`) teaches its own, lower budget: kept per host, like the connection limit
 * the gate already learns.
 */

/**
 * Refused replies a session may collect. Postfix holds back every reply of a session (refused or not, QUIT's too) once
 * it has made smtpd_soft_error_limit (10) errors: 9 is the most a session can make without one reply delayed.
 */
export const ERROR_BUDGET = 9;
/** Non-mail commands a session may send (Exim drops the 11th). */
export const NONMAIL_BUDGET = 8;
/**
 * A session left with this many refusals (the fewest it takes a batch with, `isSpent`) asks its last batch with QUIT
 * pipelined behind the recipients (RFC 2920 lets QUIT end a group): the host reads the QUIT at once instead of a round
 * trip later, and the session ends with that batch. Measured against stock Postfix (bench/README.md, issue 30): one
 * write and one round trip fewer per retiring session of a half-unknown list.
 */
export const LAST_CALL_ROOM = 2;
/**
 * The least a learned error budget goes down to: one refusal a session (a host that cuts at its 3rd error, Postfix's
 * smtpd_hard_error_limit 3). A host that cuts even then is backed off by the gate.
 */
const MIN_ERROR_BUDGET = 1;
/** The least a learned non-mail budget goes down to (EHLO and one RSET, and room for a QUIT). */
const MIN_NONMAIL_BUDGET = 3;
/** Errors a cut session must have made for the cut to teach an error limit (fewer: a 421 for another cause). */
const ERRORS_TO_LEARN = 3;

/**
 * How much later than the session's EHLO a command group must be answered to count as held back: two replies at
 * Postfix's smtpd_error_sleep_time (1 s a reply by default; our own event-loop lag is not counted), so that one slow
 * moment of a loaded host teaches nothing. A limit reached at a group's last reply shows in the session's next group.
 */
export const HELD_BACK_MIN_MS = 1_800;
const ERROR_SLEEP_MS = 1_000;

/** What a session has spent (counted by the session itself on every command and reply). */
export type TSessionSpend = { errors: number; nonMail: number };

/** A host's budgets: the defaults, or lower once it cut a session of ours. */
export class SessionBudget {
  errors: number;
  nonMail: number;

  constructor(start: { errors?: number; nonMail?: number } = {}) {
    this.errors = start.errors ?? ERROR_BUDGET;
    this.nonMail = start.nonMail ?? NONMAIL_BUDGET;
  }

  /** Sessions this host cut (a 421 in mid-session). */
  cuts = 0;
  /** Command groups this host held back once a session had made errors (its error budget learned from them). */
  heldBack = 0;
  /** The host holds back replies whatever the errors (a tarpit): its slowness teaches no error limit. */
  tarpit = false;

  /**
   * Whether this host's sessions end with a last call (a batch with QUIT behind it). Off once the host refused a
   * recipient in a way that needs a known-good control recipient asked after it (a session that has QUIT cannot ask
   * it): its sessions then retire as before, with room for fewer than two refusals.
   */
  lastCalls = true;

  /**
   * Whether the session has spent half of either budget (refused replies or non-mail commands): time to open its
   * successor beside it, so that the call after its retirement finds a greeted session instead of paying a greeting.
   */
  isHalfSpent(spend: TSessionSpend): boolean {
    return spend.nonMail * 2 >= this.nonMail || spend.errors * 2 >= this.errors;
  }

  /** Recipients the session may still be asked about in one transaction, if every one of them were refused. */
  recipientRoom(spend: TSessionSpend): number {
    return this.errors - spend.errors;
  }

  /**
   * Whether the session must retire (QUIT) now instead of taking another batch: room for fewer than two refusals (a
   * batch of one, or one recipient and its domain's catch-all probe: while a queue waits, a fresh session asks 9 at a
   * time; measured against stock Postfix, sessions kept on to their last refusal made the mixed list 30 % slower), or
   * none for the RSET a new transaction may need.
   */
  isSpent(spend: TSessionSpend): boolean {
    // a learned budget of one refusal: each session takes batches until its one refusal
    return spend.nonMail + 1 > this.nonMail || this.errors - spend.errors < Math.min(2, this.errors);
  }

  /**
   * Whether the session's next batch is its last call (QUIT pipelined behind its recipients): it has spent refusals,
   * is not spent (`isSpent`: room for two refusals and an RSET) and has at most LAST_CALL_ROOM refusals left.
   */
  isLastCall(spend: TSessionSpend): boolean {
    return this.lastCalls && spend.errors > 0 && !this.isSpent(spend) && this.errors - spend.errors <= LAST_CALL_ROOM;
  }

  /**
   * A command group answered `heldMs` later than its replies would take at the pace of the session's EHLO, after the
   * session had made `errorsBefore` errors, with replies of these `codes` in order. Postfix holds back every reply by smtpd_error_sleep_time once a
   * session has made smtpd_soft_error_limit errors (a host whose soft limit is under our budget slows each session
   * down by seconds, but never cuts it, so no cut would teach it). The held-back replies (about one a second) are the
   * last ones, those sent at an error count of at least the soft limit: the largest limit that explains them is the
   * host's, and the budget goes one under it. A group held back from its first reply (a limit under 2) is a tarpit
   * (a `sleep`, Exim's `delay`), which slows every reply whatever the errors: it teaches nothing, now or later.
   */
  learnHeldBack(errorsBefore: number, codes: number[], heldMs: number): void {
    if (this.tarpit || heldMs < HELD_BACK_MIN_MS || codes.length === 0) return;
    const delayed = Math.min(codes.length, Math.max(1, Math.round(heldMs / ERROR_SLEEP_MS)));
    // the session's error count when each reply was sent
    const counts: number[] = [];
    let count = errorsBefore;
    for (const code of codes) {
      counts.push(count);
      if (code >= 400) count++;
    }
    let soft = 0;
    for (let s = count; s >= 1 && soft === 0; s--) if (counts.filter((n) => n >= s).length >= delayed) soft = s;
    if (soft < 2) {
      this.tarpit = true;
      return;
    }
    this.heldBack++;
    this.errors = Math.max(MIN_ERROR_BUDGET, Math.min(this.errors, soft - 1));
  }

  /** The host cut a session that had spent this much: stay two under it from now on (at least one refusal a session). */
  learnCut(spend: TSessionSpend): void {
    this.cuts++;
    // only the counter that was high can have been the cause (a cut after 1 or 2 errors is no error limit); a host that
    // cuts at its 3rd or 4th error (smtpd_hard_error_limit 3 or 4) gets sessions of one or two refusals, not a cut each
    if (spend.errors >= ERRORS_TO_LEARN) this.errors = Math.max(MIN_ERROR_BUDGET, Math.min(this.errors, spend.errors - 2));
    if (spend.nonMail > MIN_NONMAIL_BUDGET + 2) this.nonMail = Math.max(MIN_NONMAIL_BUDGET, Math.min(this.nonMail, spend.nonMail - 2));
  }
}
