import type { TCallOptions, TStreamOptions, TVerificationResult, TVerifyOptions } from '../types';
import { cancellable } from './cancellation';
import { CatchAllProbing } from './catch-all';
import type { HostGate } from './host-gate';
import type { TRecentReply } from './host-watch';
import { resolveOptions, type TResolvedOptions } from './options';
import { VerificationPipeline } from './pipeline';
import { RcptBatcher } from './rcpt-batcher';
import { SessionPool } from './session-pool';
import { SmtpStage } from './smtp-stage';
import { scheduleStream } from './stream-scheduler';

export { DEFAULT_GREYLIST_SCHEDULE, DEFAULT_TIMEOUTS } from './options';

/** One mail host as the engine sees it (VerifierEngine.listHosts). */
export type THostView = {
  /** "ip:port" of the mail host. */
  host: string;
  sessionsOpen: number;
  sessionsOpening: number;
  /** Slots held by calls now. */
  inUse: number;
  /** Slots the engine may hold there now (its limit within the learned ceiling and slow start). */
  capacity: number;
  /** The most sessions the host takes at once, learned from a 421, while that knowledge is fresh. */
  learnedCeiling: number | null;
  refusedSessions: number;
  rateLimited: number;
  cutSessions: number;
  /** The back-off delay before each new use of the host now (0: none). */
  backOffMs: number;
  /** Until when (clock ms) the host is held as down after failures in a row (null: it is not). */
  downUntil: number | null;
  /** The refused replies and non-mail commands a session may spend there (lowered once the host cut one). */
  errorBudget: number;
  nonMailBudget: number;
  /** The MX name the host was last reached as (host-watch.ts). */
  exchange: string | null;
  /** Whether an operator paused it (TVerifyOptions.hostPause). */
  paused: boolean;
  /** Its last final replies, oldest first (at: clock ms). */
  recentReplies: TRecentReply[];
}

/**
 * The verification engine. Build one per process and share it: it holds the DNS and catch-all caches, the
 * per-mail-host session limits and back-off (so the limits that protect the sending IP hold for the whole
 * process) and the pool of warm SMTP sessions. Per-call choices (mode, gibberish threshold, allow/block list,
 * cancellation) are passed to `verify` / `verifyMany`.
 *
 * This class only wires the parts, each of one job: options.ts (options and run state), pipeline.ts (the stages of
 * one verification), smtp-stage.ts (attempts over the MX hosts), retry-policy.ts (what each reply means and what
 * comes next, as pure functions), catch-all.ts, rcpt-batcher.ts, session-pool.ts, ../smtp/smtp-transaction.ts and
 * stream-scheduler.ts.
 */
export class VerifierEngine {
  readonly options: TResolvedOptions;
  private readonly pool: SessionPool;
  private readonly pipeline: VerificationPipeline;

  constructor(options: TVerifyOptions) {
    this.options = resolveOptions(options);
    this.pool = new SessionPool(this.options);
    const catchAll = new CatchAllProbing(this.options.cache);
    const batcher = new RcptBatcher(this.options, this.pool, catchAll);
    this.pipeline = new VerificationPipeline(this.options, new SmtpStage(this.options, batcher, catchAll));
  }

  /** The gate of a mail host address (ip or name, port): its current limit, back-off and sessions. */
  inspectHost(address: string): Pick<HostGate, 'limit' | 'capacity' | 'ceiling' | 'active' | 'established' | 'opening' | 'delayMs' | 'maxRecipients' | 'maxBatch' | 'rateLimited' | 'budget'> | null {
    return this.pool.existingGate(`${address}:${this.options.smtpPort}`);
  }

  /**
   * What the engine knows of every mail host it has met, for an operator's view (metrics): sessions open and being
   * opened, the slots it may hold now, sessions refused, rate-limit replies, cut sessions and the current back-off.
   */
  listHosts(): THostView[] {
    const now = this.options.clock.now();
    return [...this.pool.entries()].map(([host, gate]) => ({
      host,
      sessionsOpen: gate.established,
      sessionsOpening: gate.opening,
      inUse: gate.active,
      capacity: gate.capacity,
      learnedCeiling: gate.ceilingUntil > now && Number.isFinite(gate.ceiling) ? gate.ceiling : null,
      refusedSessions: gate.refusedSessions,
      rateLimited: gate.rateLimited,
      cutSessions: gate.budget.cuts,
      backOffMs: gate.delayMs,
      downUntil: gate.downUntil > now ? gate.downUntil : null,
      errorBudget: gate.budget.errors,
      nonMailBudget: gate.budget.nonMail,
      exchange: this.options.hostWatch.exchange(host),
      paused: this.options.hostWatch.isPaused(host),
      recentReplies: this.options.hostWatch.recentReplies(host),
    }));
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /**
   * Verify one address. Never throws for the address's sake (unexpected failures become unknown / smtp_error);
   * rejects only when `call.signal` cancels it, since a cancellation is not a verdict.
   *
   * A cancelled call rejects at once with the signal's reason, whatever its verification is doing. An SMTP exchange
   * already under way for it (greeting, EHLO, STARTTLS, a transaction that may carry other calls' recipients) is not
   * cut: it goes on in the background to its end, so the session's replies are all read before the session is
   * reused (or the session fails and is closed), the other recipients of the transaction get their answers, and
   * nothing more is asked for the cancelled call. Its answer, if one comes, is dropped.
   */
  async verify(email: string, call: TCallOptions = {}): Promise<TVerificationResult> {
    return cancellable(call.signal, () => this.pipeline.run(email, call, undefined));
  }

  /**
   * Verify a stream of addresses on this engine, yielding each result as soon as it is ready (stream-scheduler.ts).
   * Several streams and single calls may share the engine at once; the per-host limits hold for all of them together.
   */
  verifyMany(addresses: Iterable<string> | AsyncIterable<string>, stream: TStreamOptions = {}): AsyncGenerator<TVerificationResult> {
    return scheduleStream(addresses, stream, (email, call, onParked) => cancellable(call.signal, () => this.pipeline.run(email, call, onParked)));
  }
}
