import { classifyReply, isDirectoryMiss, isRateLimitReply, type TSmtpReply } from './classify-reply';
import { SmtpFailure, type SmtpSession } from './smtp-session';

/** A recipient asked in a transaction (the RCPT batcher's request has these fields and more). */
export type TTransactionRecipient = {
  address: string;
  domain: string;
  /** the domain's random catch-all probe, when the domain's catch-all status was not known when it was queued */
  randomAddress: string | null;
  smtputf8: boolean;
  run: { signal: AbortSignal | undefined };
};

/** What a host's replies teach about it (host-gate.ts's HostGate): its per-transaction and per-session limits. */
export type THostLimits = {
  maxBatch: number;
  maxRecipients: number;
  rateLimited: number;
  penalize(): void;
  budget: {
    learnCut(spend: { errors: number; nonMail: number }): void;
    isSpent(spend: { errors: number; nonMail: number }): boolean;
    isLastCall(spend: { errors: number; nonMail: number }): boolean;
    learnHeldBack(errorsBefore: number, codes: number[], heldMs: number): void;
    lastCalls: boolean;
  };
};

/** What the engine knows of a domain when a transaction is built (catch-all.ts). */
export type TDomainKnowledge = {
  known(domain: string): Promise<boolean | null>;
  isPerRecipientDenier(domain: string): Promise<boolean>;
};

/** The replies about one recipient: its own, its domain's catch-all probe and postmaster control (when asked). */
export type TRecipientReplies = {
  rcpt: TSmtpReply | undefined;
  probe: TSmtpReply | undefined;
  control: TSmtpReply | undefined;
  /** the domain was already known to deny per recipient (no control was asked) */
  knownPerRecipient: boolean;
};

/** What one transaction saw; retry-policy.ts turns it into each recipient's attempt. */
export type TTransactionResult<R> = {
  /** recipients not asked: cancelled before their RCPT was sent, or a UTF-8 local part on a host without SMTPUTF8 */
  skipped: Map<R, 'cancelled' | 'no_smtputf8'>;
  /** MAIL FROM's reply when it was not accepted (then no recipient was asked) */
  mailRefused: TSmtpReply | null;
  /** the recipients MAIL FROM was sent for, with the replies about each (none when MAIL FROM was refused) */
  asked: Map<R, TRecipientReplies>;
  /** postscreen-style: the host turned a new session away (4.3.x) */
  freshTurnedAway: boolean;
  /** the host cut the session with a 421 in mid-session */
  cut: boolean;
  /** the transport failed part way (the recipients without a reply are asked again on a new session) */
  failure: SmtpFailure | null;
};

/** A reply after which a session serves no more: 421, or a 4.3.x "service unavailable" on a new session (postscreen). */
function ends(reply: TSmtpReply, fresh: boolean): boolean {
  return reply.code === 421 || (fresh && reply.code >= 400 && reply.code < 500 && reply.enhanced?.startsWith('4.3.') === true);
}

/**
 * Recipients one mail transaction may carry before the engine starts another (RSET, MAIL FROM): RFC 5321 §4.5.3.1.8
 * obliges every server to take 100 (Postfix takes 1,000); a host's 452 "too many recipients" lowers its own.
 */
export const TRANSACTION_RECIPIENTS = 100;

/**
 * One batch of recipients of one host, in the session's open mail transaction or a new one: MAIL FROM (after an RSET
 * when a transaction is open but cannot take the batch), then RCPT TO for each address (and one random address per
 * domain whose catch-all status is not known yet), pipelined when the host offers PIPELINING; then RCPT TO postmaster
 * (a known-good control) for domains whose address got a per-recipient denial. The transaction is left open for the
 * session's next batch: no RSET after each batch (Exim counts every RSET against smtp_accept_max_nonmail, and each
 * costs a round trip; Postfix creates a queue file, held by in_flow_delay, per transaction), no DATA ever. A 452 "too
 * many recipients" lowers the host's batch size; a rate-limit reply slows the host down; a 421 or a refused RSET
 * teaches its session budget; the session is marked to retire when it serves no more.
 * Throws SmtpFailure when the connection fails before MAIL FROM (or the RSET before it) is answered.
 */
export async function runTransaction<R extends TTransactionRecipient>(
  session: SmtpSession,
  host: THostLimits,
  domains: TDomainKnowledge,
  mailFrom: string,
  batch: R[],
  /** the most recipients one transaction takes (TRANSACTION_RECIPIENTS unless the caller asked for fewer) */
  maxTransaction = TRANSACTION_RECIPIENTS,
): Promise<TTransactionResult<R>> {
  const result: TTransactionResult<R> = { skipped: new Map(), mailRefused: null, asked: new Map(), freshTurnedAway: false, cut: false, failure: null };
  const live = batch.filter((r) => {
    if (r.run.signal?.aborted === true) {
      // cancelled before its recipient was sent (e.g. while the session was being opened): nothing is asked for it
      result.skipped.set(r, 'cancelled');
      return false;
    }
    if (!r.smtputf8 || session.extensions.has('SMTPUTF8')) return true;
    result.skipped.set(r, 'no_smtputf8');
    return false;
  });
  if (live.length === 0) return result;
  const smtputf8 = live.some((r) => r.smtputf8);
  const lines: string[] = [];
  const slots: Array<{ req: R } | { probe: string }> = [];
  // a domain whose catch-all status was learned since these requests were made needs no probe (one refusal fewer)
  const probed = new Set<string>();
  for (const r of live) if (r.randomAddress && !probed.has(r.domain) && (await domains.known(r.domain)) !== null) probed.add(r.domain);
  for (const r of live) {
    lines.push(`RCPT TO:<${r.address}>`);
    slots.push({ req: r });
    if (r.randomAddress && !probed.has(r.domain)) {
      probed.add(r.domain);
      lines.push(`RCPT TO:<${r.randomAddress}>`);
      slots.push({ probe: r.domain });
    }
  }
  // the open transaction takes the batch when it has room (the host's learned per-transaction limit too) and the
  // same SMTPUTF8 parameter; else a new one, after an RSET when one is open (pipelined with it: one round trip)
  const open = session.transaction;
  const perTransaction = Math.min(maxTransaction, host.maxBatch);
  const joins = open !== null && open.smtputf8 === smtputf8 && (open.recipients === 0 || open.recipients + slots.length <= perTransaction);
  const mailLine = `MAIL FROM:<${mailFrom}>${smtputf8 ? ' SMTPUTF8' : ''}`;
  const head = joins ? [] : [...(open ? ['RSET'] : []), mailLine];
  lines.unshift(...head);
  // a batch that joins the open transaction shows in its transcript the MAIL FROM that opened it, and its reply
  if (joins && open) for (const [direction, line] of open.opening) session.sink?.(direction, line);
  // the session's last call (session-budget.ts): QUIT pipelined behind the recipients, the session ends with this batch
  // (never on a session the host has not served yet: postscreen may turn a new one away)
  const lastCall = session.uses > 0 && host.budget.isLastCall(session);
  if (lastCall) lines.push('QUIT');
  const recipientsBefore = session.recipients;
  const inTransactionBefore = joins && open ? open.recipients : 0;
  session.recipients += slots.length;
  session.transaction = null;
  // without PIPELINING the commands go one at a time: a refused RSET or MAIL FROM, a 421 or postscreen's "service
  // unavailable" on a new session stops the rest (nothing more is asked of a session that serves no more)
  // (a session opened in the background and not used yet is as new to the host as one opened for this batch)
  const fresh = session.uses === 0;
  let sent = 0;
  const stopAt = (reply: TSmtpReply): boolean => (sent++ < head.length && reply.code >= 300) || ends(reply, fresh);
  const errorsBefore = session.errors;
  const { replies: all, failure } = await session.pipeline(lines, stopAt);
  // replies held back once the session had made errors: the host's soft error limit (session-budget.ts); the time
  // beyond what each reply would take at EHLO's pace, so a host slow at every reply (a long round trip, a slow
  // server) is not taken for one holding replies back
  if (!failure && session.helloMs !== null) host.budget.learnHeldBack(errorsBefore, all.map((r) => r.code), session.lastGroupMs - all.length * session.helloMs);
  // QUIT's reply (the last one, when every command was answered): the host has seen the session end
  const goodbye = lastCall && all.length === lines.length ? all.pop() : undefined;
  const rset = head.length === 2 ? all[0] : undefined;
  if (head.length === 2 && rset?.code !== 250) {
    // RSET refused (Postfix's 421 `too many errors`, Exim's `554 Too many nonmail commands`): a per-session limit; the
    // recipients are asked again at once on a new session
    if (!rset) throw failure ?? new SmtpFailure('protocol', 'no reply to RSET');
    if (rset.code >= 400) host.budget.learnCut({ errors: session.errors - 1, nonMail: session.nonMail });
    session.close();
    result.failure = new SmtpFailure('connection_lost', `RSET refused: ${rset.lines.join(' ')}`);
    for (const r of live) result.asked.set(r, { rcpt: undefined, probe: undefined, control: undefined, knownPerRecipient: false });
    return result;
  }
  // a reused session the host closed while it was idle answers nothing: thrown, so the batch is asked on a new session
  if (joins && all.length === 0 && failure) throw failure;
  const mail: TSmtpReply | undefined = joins ? { code: 250, enhanced: null, text: 'transaction open', lines: [] } : all[head.length - 1];
  if (!mail) throw failure ?? new SmtpFailure('protocol', 'no reply to MAIL FROM');
  // the replies from MAIL FROM's on (an open transaction's is the one it had)
  const replies = joins ? [mail, ...all] : all.slice(head.length - 1);
  if (classifyReply(mail).kind !== 'accepted') {
    session.retiring = true;
    // a last call's QUIT was answered after the refused MAIL FROM: the session has ended
    if (goodbye) {
      session.saidGoodbye = true;
      session.close();
    }
    if (mail.code === 421) host.budget.learnCut({ errors: session.errors - 1, nonMail: session.nonMail });
    result.mailRefused = mail;
    for (const r of live) result.asked.set(r, { rcpt: undefined, probe: undefined, control: undefined, knownPerRecipient: false });
    return result;
  }
  result.failure = failure;
  const rcptReplies = new Map<R, TSmtpReply>();
  const probeReplies = new Map<string, TSmtpReply>();
  let accepted = 0;
  let tooMany = false;
  slots.forEach((slot, i) => {
    const reply = replies[i + 1];
    if (!reply) return;
    if (classifyReply(reply).kind === 'too_many_recipients') {
      if (!tooMany) {
        // the host takes `accepted` recipients per transaction (and per session, counted from its start)
        host.maxBatch = Math.max(1, Math.min(host.maxBatch, inTransactionBefore + accepted));
        host.maxRecipients = Math.max(1, Math.min(host.maxRecipients, recipientsBefore + accepted));
      }
      tooMany = true;
    } else accepted++;
    if ('req' in slot) rcptReplies.set(slot.req, reply);
    else probeReplies.set(slot.probe, reply);
  });
  result.freshTurnedAway = fresh && [...rcptReplies.values()].some((r) => r.code >= 400 && r.code < 500 && r.enhanced?.startsWith('4.3.'));
  // a 421 in mid-session: the host cut the session (Postfix's `too many errors`, Exim's nonmail limit…): it teaches
  // the host's budget, and the recipients are asked again at once on a new session
  result.cut = replies.some((r) => r.code === 421);
  // a rate-limit reply slows this host's recipients down at once: smaller batches (what it took before refusing),
  // fewer sessions and a pause before each (the gate's back-off), learned for the host
  if (replies.slice(1).some((r) => isRateLimitReply(r))) {
    host.maxBatch = Math.max(1, Math.min(host.maxBatch, Math.max(1, Math.floor(accepted / 2))));
    host.penalize();
    host.rateLimited++;
  }
  if (result.cut) host.budget.learnCut({ errors: session.errors - 1, nonMail: session.nonMail });
  if (failure) session.close();
  else if (result.freshTurnedAway || tooMany || result.cut || [...rcptReplies.values()].some((r) => classifyReply(r).kind === 'unavailable')) session.retiring = true;
  // controls: postmaster for each domain whose address got a per-recipient denial not yet judged for the domain
  const controlReplies = new Map<string, TSmtpReply>();
  const knownDeniers = new Set<string>();
  for (const r of live) if (!knownDeniers.has(r.domain) && (await domains.isPerRecipientDenier(r.domain))) knownDeniers.add(r.domain);
  if (lastCall) {
    // no control can be asked after QUIT: the recipients whose refusal needed one are asked again on a new session
    // (no reply: a retry at once), and this host's sessions end without last calls from now on
    for (const r of live) {
      const reply = rcptReplies.get(r);
      if (reply && classifyReply(reply).kind === 'denied' && !isDirectoryMiss(reply) && !knownDeniers.has(r.domain)) {
        rcptReplies.delete(r);
        host.budget.lastCalls = false;
      }
    }
    if (goodbye) session.saidGoodbye = true;
    if (goodbye || failure) session.close();
    else session.retiring = true;
  } else if (!session.closed && !session.retiring) {
    const controlled: string[] = [];
    for (const r of live) {
      const reply = rcptReplies.get(r);
      if (reply && classifyReply(reply).kind === 'denied' && !isDirectoryMiss(reply) && !controlled.includes(r.domain) && !knownDeniers.has(r.domain)) controlled.push(r.domain);
    }
    if (controlled.length > 0) {
      session.recipients += controlled.length;
      const controls = await session.pipeline(controlled.map((d) => `RCPT TO:<postmaster@${d}>`));
      controlled.forEach((d, i) => {
        const reply = controls.replies[i];
        if (reply) controlReplies.set(d, reply);
      });
      if (controls.failure) session.close();
    }
    // a session whose budget is spent retires with QUIT; else its transaction stays open for the next batch
    if (host.budget.isSpent(session)) session.retiring = true;
    else if (!session.closed) {
      const opening = joins && open ? open.opening : [['C', mailLine] as ['C', string], ...mail.lines.map((l) => ['S', l] as ['S', string])];
      session.transaction = { smtputf8, recipients: inTransactionBefore + slots.length + controlled.length, opening };
    }
  }
  for (const r of live) {
    result.asked.set(r, {
      rcpt: rcptReplies.get(r),
      probe: r.randomAddress ? probeReplies.get(r.domain) : undefined,
      control: controlReplies.get(r.domain),
      knownPerRecipient: knownDeniers.has(r.domain),
    });
  }
  return result;
}
