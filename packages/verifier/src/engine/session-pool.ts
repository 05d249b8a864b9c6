import type { TMailHost } from '../dns/resolve-mail-hosts';
import { classifyReply, isIdentityRefusal, type TSmtpReply } from '../smtp/classify-reply';
import { SmtpFailure, SmtpSession } from '../smtp/smtp-session';
import type { THostLease, TReasonCode } from '../types';
import { SharedHostLessons } from './host-budgets';
import { HostGate } from './host-gate';
import { makeWarmRun, transcriptSink, type TResolvedOptions, type TRun } from './options';
import type { TAttempt } from './retry-policy';
import { REASON_TEXTS } from './verdict';

/**
 * A session retires after this many transactions: well under the 100 RSETs after which Postfix starts counting each
 * one as an error (smtpd_junk_command_limit). Retiring it after a number of refused recipients too (Postfix slows down
 * after 10 errors and hangs up at 20) was measured and left out: batches of unknown mailboxes then retired sessions
 * after one transaction, and the realistic corpus's median verification took twice as long.
 */
const MAX_SESSION_USES = 50;
/**
 * A session due to retire waits (up to this many transactions, still under Postfix's 100) while another session of
 * its host is being opened or closed: sessions opened together reach their 50th transaction together under load,
 * and retiring them at once left the host's calls waiting for new greetings (a retirement at a time leaves the
 * others serving, and the successor is opened in the freed slot).
 */
const LAST_SESSION_USE = 80;
/**
 * Halfway to its retirement a session has its successor opened beside it, when the host has a free slot: the call
 * after the retirement finds a greeted session waiting instead of paying the host's greeting delay (a warm
 * transaction takes a few ms, a greeting up to 500 ms, so the successor needs a head start of many transactions).
 */
const PREWARM_AT_USES = MAX_SESSION_USES / 2;

/** The time left to a run's deadline (at least 1 ms): what a session it uses may spend waiting for the host. */
const timeLeft = (o: TResolvedOptions, run: TRun): number => Math.max(1, run.deadline - o.clock.now());

class GreetingRefused extends Error {
  /** The connections every process sharing the host's budgets held there when it refused (null: this process alone). */
  heldElsewhere: number | null = null;
  /** The refused session's ticket at its host's gate (HostGate.beginOpening). */
  ticket = Number.POSITIVE_INFINITY;

  constructor(readonly reply: TSmtpReply) {
    super(`server refused the session: ${reply.lines.join(' ')}`);
    this.name = 'GreetingRefused';
  }
}

/**
 * The pool of warm SMTP sessions, one gate per mail host address (host-gate.ts: its slots, back-off, learned limits
 * and idle sessions). A caller holding a slot checks a session out (an idle one, or one opened for it) and back in;
 * the pool retires sessions at their limits and opens their successors ahead of time in free slots.
 */
export class SessionPool {
  private readonly gates = new Map<string, HostGate>();
  private closing = false;
  /** Aborted when the pool closes: ends the waits for a shared connection slot. */
  private readonly closed = new AbortController();
  /** The hosts' lessons and connections shared with other processes (a no-op for the in-process default). */
  private readonly shared: SharedHostLessons;

  constructor(private readonly options: TResolvedOptions) {
    this.shared = new SharedHostLessons(options.hostBudgets, options.clock);
  }

  /** The gate of a mail host address ("ip:port"). */
  gate(key: string): HostGate {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new HostGate(this.options.perHostConcurrency, this.options.sleep, this.options.clock, this.options.sessionBudget);
      this.gates.set(key, gate);
      this.shared.track(key, gate);
    } else this.shared.adopt(gate);
    return gate;
  }

  /** The gate of a mail host address, if the engine has met it. */
  existingGate(key: string): HostGate | null {
    return this.gates.get(key) ?? null;
  }

  /** Every mail host address the engine has met ("ip:port") with its gate. */
  entries(): IterableIterator<[string, HostGate]> {
    return this.gates.entries();
  }

  get isClosing(): boolean {
    return this.closing;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.closed.abort();
    await Promise.all([...this.gates.values()].map((g) => g.closeAll()));
  }

  /**
   * A session for the caller's slot: an idle one (now bound to the caller's deadline), or one opened for it. An
   * open that fails rejects; `describeOpenFailure` says what that means for the caller's recipients.
   */
  async checkout(run: TRun, gate: HostGate, host: TMailHost, ip: string): Promise<{ session: SmtpSession; reused: boolean }> {
    const idle = gate.takeIdle();
    if (idle) {
      idle.setBudget(timeLeft(this.options, run));
      return { session: idle, reused: true };
    }
    return { session: await this.openSession(run, gate, host, ip), reused: false };
  }

  /**
   * Takes back the session of a caller's slot (null when it failed) and frees the slot: the session waits idle for
   * the next caller, or retires (QUIT in the slot) when it is spent or due; a successor is opened ahead of time.
   */
  async checkin(run: TRun, gate: HostGate, host: TMailHost, ip: string, session: SmtpSession | null): Promise<void> {
    let retired = false;
    this.shared.share(gate); // what the transaction taught (a cut, a pause), for the other processes
    if (session && !session.closed) {
      session.uses++;
      session.sink = undefined;
      const due = session.retiring || gate.budget.isSpent(session) || (session.uses >= MAX_SESSION_USES && (session.uses >= LAST_SESSION_USE || !gate.renewing));
      if (!due && session.recipients < gate.maxRecipients) {
        gate.putIdle(session);
        // its successor is opened beside it halfway to its retirement (by uses, or by either budget)
        if (!session.prewarmed && (session.uses >= PREWARM_AT_USES || gate.budget.isHalfSpent(session))) {
          session.prewarmed = true;
          this.prewarm(run, gate, host, ip);
        }
      } else {
        // retired: the slot is held until the host has seen the QUIT, so it never counts one connection too many
        await gate.quitInSlot(session);
        retired = true;
      }
    } else if (session?.saidGoodbye) retired = true; // ended by its last call's QUIT (smtp-transaction.ts)
    gate.release();
    // a retired session's successor is opened at once in the freed slot (unless a session waits idle): while it
    // is greeted, the host's other sessions serve on, past their own retirement if need be (LAST_SESSION_USE)
    if (retired && gate.idleCount === 0) this.prewarm(run, gate, host, ip);
  }

  /**
   * Opens a session for the pool in the background, in a free slot of the host (never beyond its slots, its learned
   * ceiling or its back-off): the successor of a session about to retire. A refusal teaches the gate as any other.
   */
  private prewarm(run: TRun, gate: HostGate, host: TMailHost, ip: string): void {
    if (this.closing || gate.isDown(this.options.clock.now()) || !gate.tryAcquire()) return;
    this.openInBackground(run, gate, host, ip, { spare: true });
  }

  /**
   * Opens a session in the slot the caller holds, in the background, and releases the slot once the session is
   * greeted (and put in the pool: a spare waits under the others) or failed (the failure teaches the gate as any other).
   */
  openInBackground(run: TRun, gate: HostGate, host: TMailHost, ip: string, opts: { spare?: boolean } = {}): void {
    void this.openSession(makeWarmRun(this.options, run), gate, host, ip)
      .then(
        (session) => (this.closing ? void session.quit() : gate.putIdle(session, opts)),
        (error: unknown) => {
          try {
            this.describeOpenFailure(gate, host, error);
          } catch {
            /* an unexpected failure only loses the warm session */
          }
        },
      )
      .finally(() => gate.release());
  }

  /**
   * A lease for one more connection to the host from the shared store: at once from the in-process one; else waited
   * for while every process together holds what the host takes (the wait is ours: the run's deadline moves back).
   */
  private lease(run: TRun, gate: HostGate): THostLease | Promise<THostLease> {
    const noSlot = () => new SmtpFailure('timeout', 'no connection slot came free at the host among the processes sharing it', true);
    const pending = this.shared.lease(gate, run.timeouts.totalMs, run.signal, this.closed.signal);
    if (!(pending instanceof Promise)) return pending ?? Promise.reject(noSlot());
    const before = this.options.clock.now();
    return pending.then((lease) => {
      run.deadline += this.options.clock.now() - before;
      if (!lease) throw noSlot();
      return lease;
    });
  }

  /** Open a session to the host (greeting, EHLO, STARTTLS when offered); the gate counts it while it opens and lives. */
  private async openSession(run: TRun, gate: HostGate, host: TMailHost, address: string): Promise<SmtpSession> {
    const { heloName, dial, smtpPort, clock } = this.options;
    const { timeouts } = run;
    const leased = this.lease(run, gate);
    const lease = leased instanceof Promise ? await leased : leased;
    const ticket = gate.beginOpening();
    try {
      const { session, greeting } = await SmtpSession.open({
        address,
        port: smtpPort,
        serverName: host.exchange,
        heloName,
        dial,
        connectMs: timeouts.connectMs,
        replyMs: timeouts.replyMs,
        budgetMs: timeLeft(this.options, run),
        sink: this.options.hostWatch.tap(`${address}:${smtpPort}`, transcriptSink(clock, run)),
      });
      try {
        if (greeting.code !== 220) throw new GreetingRefused(greeting);
        let hello = await session.greet();
        if (hello.code !== 250) throw new GreetingRefused(hello);
        if (session.extensions.has('STARTTLS')) {
          const tlsReply = await session.startTls();
          if (tlsReply.code === 220) {
            hello = await session.greet();
            if (hello.code !== 250) throw new GreetingRefused(hello);
          }
        }
        gate.noteEstablished(session);
        lease.established();
        session.onEnd(() => lease.release());
        lease.onWanted?.(() => gate.closeIdle(session));
        return session;
      } catch (error) {
        // a refused greeting or EHLO: the host still reads a QUIT (RFC 5321 §3.1: after a 554 greeting only QUIT), so
        // the session ends politely instead of being dropped; a 421 is the host closing the channel itself
        if (error instanceof GreetingRefused && error.reply.code !== 421) await session.quit();
        else session.close();
        // a host that refuses one connection too many: how many every process held there is its ceiling
        if (error instanceof GreetingRefused && error.reply.code >= 400 && error.reply.code < 500) {
          error.ticket = ticket;
          error.heldElsewhere = await lease.refused();
        }
        throw error;
      }
    } catch (error) {
      lease.release();
      throw error;
    } finally {
      gate.endOpening();
    }
  }

  /** What a failed open means for the recipients that waited for it; the host's gate learns from it (rethrows the unexpected). */
  describeOpenFailure(gate: HostGate, host: TMailHost, error: unknown): TAttempt {
    if (error instanceof GreetingRefused) {
      gate.refusedSessions++;
      const cls = classifyReply(error.reply);
      const text = error.reply.lines.join(' ');
      // its HELO name refused (Helo command rejected at EHLO, when the host does not wait for RCPT): not asked again for a while
      if (isIdentityRefusal(error.reply)) gate.refuseIdentity(text, this.options.clock.now());
      if (cls.kind === 'blocked') return { type: 'failed', reason: 'verifier_blocked', host, text: `${REASON_TEXTS.verifier_blocked} Server reply: ${text}` };
      if (error.reply.code >= 400 && error.reply.code < 500) {
        // one session too many (others of ours were open): the host's ceiling is learned and caps the slots;
        // refused with none open: the host is busy, so back off
        if (!gate.learnCeiling(error.heldElsewhere, error.ticket)) gate.penalize();
        this.shared.share(gate);
        return { type: 'retry', why: 'busy', host, replyText: text };
      }
      return { type: 'failed', reason: 'smtp_error', host, text: `${REASON_TEXTS.smtp_error} Server reply: ${text}` };
    }
    if (error instanceof SmtpFailure) {
      const reason: TReasonCode = error.kind === 'timeout' ? 'smtp_timeout' : 'connection_failed';
      if (!error.clipped) {
        gate.recordConnectFailure(reason === 'smtp_timeout' ? 'smtp_timeout' : 'connection_failed', this.options.clock.now());
        if (error.kind === 'refused') {
          gate.refusedSessions++;
          gate.penalize();
        }
        this.shared.share(gate);
      }
      return { type: 'failed', reason, host, text: `${REASON_TEXTS[reason]} ${error.message}.` };
    }
    throw error;
  }
}
