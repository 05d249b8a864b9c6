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
  budget: { learnCut(spend: { errors: number; nonMail: number }): void; isSpent(spend: { errors: number; nonMail: number }): boolean };
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
 * One transaction for a batch of recipients of one host: MAIL FROM, then RCPT TO for each address (and one
 * random address per domain whose catch-all status is not known yet), pipelined when the host offers
 * PIPELINING; then RCPT TO postmaster (a known-good control) for domains whose address got a per-recipient
 * denial; then RSET. A 452 "too many recipients" lowers the host's batch size; a rate-limit reply slows the host
 * down; a 421 or a refused RSET teaches its session budget; the session is marked to retire when it serves no more.
 * Throws SmtpFailure when the connection fails before MAIL FROM is answered.
 */
export async function runTransaction<R extends TTransactionRecipient>(
  session: SmtpSession,
  host: THostLimits,
  domains: TDomainKnowledge,
  mailFrom: string,
  batch: R[],
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
  const lines = [`MAIL FROM:<${mailFrom}>${live.some((r) => r.smtputf8) ? ' SMTPUTF8' : ''}`];
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
  const recipientsBefore = session.recipients;
  session.recipients += slots.length;
  // without PIPELINING the commands go one at a time: a refused MAIL FROM, a 421 or postscreen's "service
  // unavailable" on a new session stops the rest (nothing more is asked of a session that serves no more)
  // (a session opened in the background and not used yet is as new to the host as one opened for this batch)
  const fresh = session.uses === 0;
  let sent = 0;
  const stopAt = (reply: TSmtpReply): boolean => (sent++ === 0 && reply.code >= 300) || ends(reply, fresh);
  const { replies, failure } = await session.pipeline(lines, stopAt);
  const mail = replies[0];
  if (!mail) throw failure ?? new SmtpFailure('protocol', 'no reply to MAIL FROM');
  if (classifyReply(mail).kind !== 'accepted') {
    session.retiring = true;
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
        host.maxBatch = Math.max(1, Math.min(host.maxBatch, accepted));
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
  if (!session.closed && !session.retiring) {
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
    // a session whose budget is spent retires with QUIT, without an RSET first (one non-mail command fewer)
    if (host.budget.isSpent(session)) session.retiring = true;
    if (!session.closed && !session.retiring) {
      const rset = await session.pipeline(['RSET']);
      // RSET refused (Postfix's 421 `too many errors`, Exim's `554 Too many nonmail commands`): a per-session limit
      const rsetCode = rset.replies[0]?.code ?? 0;
      if (rsetCode >= 400) host.budget.learnCut({ errors: session.errors - 1, nonMail: session.nonMail });
      if (rset.replies[0]?.code !== 250) session.close();
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
