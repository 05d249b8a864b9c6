import type { TMailHost } from '../dns/resolve-mail-hosts';
import { isIdentityRefusal } from '../smtp/classify-reply';
import { SmtpFailure, type SmtpSession } from '../smtp/smtp-session';
import { runTransaction, type TTransactionResult } from '../smtp/smtp-transaction';
import type { TReasonCode } from '../types';
import { batchTranscriptSink } from './batch-transcript';
import type { CatchAllProbing } from './catch-all';
import type { HostGate } from './host-gate';
import { transcriptSink, type TResolvedOptions, type TRun } from './options';
import { gateFeedback, mailRefusedAttempt, recipientAttempt, skippedAttempt, type TAttempt } from './retry-policy';
import type { SessionPool } from './session-pool';
import { REASON_TEXTS } from './verdict';

/** Why a queued request stops waiting for a slot: another request's transaction took it (a plain value, no stack). */
const TAKEN_IN_BATCH = { taken: true };

/** One recipient waiting at a mail host address for a transaction (its own, or one that another request leads). */
type TRcptRequest = {
  run: TRun;
  host: TMailHost;
  address: string;
  domain: string;
  randomAddress: string | null;
  smtputf8: boolean;
  /** taken into another request's transaction: stop waiting for a slot, the answer comes through `result` */
  taken: boolean;
  stopWaiting: AbortController;
  settle(attempt: TAttempt): void;
  result: Promise<TAttempt>;
};

/** One recipient to ask of one mail host address. */
export type TRcptQuestion = { host: TMailHost; ip: string; address: string; domain: string; randomAddress: string | null; smtputf8: boolean };

const isCancelled = (r: TRcptRequest): boolean => r.run.signal?.aborted === true;

/**
 * RCPT batching: recipients of one mail host address queue for a session slot; whoever gets a slot takes the
 * requests waiting behind it too (up to the host's batch size) into one SMTP transaction, so under load a slow host
 * is asked about many recipients per round trip.
 */
export class RcptBatcher {
  /** Recipients waiting for a session slot, per mail host address. */
  private readonly pending = new Map<string, TRcptRequest[]>();

  constructor(
    private readonly options: TResolvedOptions,
    private readonly pool: SessionPool,
    private readonly catchAll: CatchAllProbing,
  ) {}

  private pendingAt(key: string): TRcptRequest[] {
    let queue = this.pending.get(key);
    if (!queue) {
      queue = [];
      this.pending.set(key, queue);
    }
    return queue;
  }

  /**
   * Wait for a slot at the host, until the call is cancelled or `stopWaiting` (the request was answered in another's
   * transaction). The wait is ours, not the host's: the run's deadline moves back by as much.
   */
  private async acquireSlot(run: TRun, gate: HostGate, stopWaiting: AbortSignal): Promise<void> {
    const { clock } = this.options;
    const before = clock.now();
    run.onParked?.(+1);
    try {
      await gate.acquire(run.signal, stopWaiting);
    } finally {
      run.onParked?.(-1);
      run.deadline += clock.now() - before;
    }
  }

  /** Ask one mail host address about one recipient, in a transaction of its own or of a request ahead of it. */
  async ask(run: TRun, question: TRcptQuestion): Promise<TAttempt> {
    const { host, ip, smtputf8, randomAddress } = question;
    const key = `${ip}:${this.options.smtpPort}`;
    const gate = this.pool.gate(key);
    const now = () => this.options.clock.now();
    const downAnswer = (): TAttempt => ({ type: 'failed', reason: gate.downReason, host, text: `${REASON_TEXTS[gate.downReason]} (${host.exchange} failed repeatedly and is paused.)` });
    if (gate.isDown(now())) return downAnswer();
    const identityAnswer = (): TAttempt => ({
      type: 'failed',
      reason: 'verifier_blocked',
      host,
      text: `${REASON_TEXTS.verifier_blocked} ${host.exchange} refuses the verifier's HELO name, sender or address, so the mailbox was not asked. Server reply: ${gate.identityRefusal}`,
    });
    if (gate.refusesIdentity(now())) return identityAnswer();
    // an operator's pause (host-watch.ts): new work waits before it queues, and the wait is not the host's
    const watch = this.options.hostWatch;
    const ref = { key, ip, exchange: host.exchange };
    const pausedAnswer = (): TAttempt => ({ type: 'failed', reason: 'smtp_timeout', host, text: `${REASON_TEXTS.smtp_timeout} (${host.exchange} is paused by the operator.)` });
    watch.noteExchange(key, host.exchange);
    const waitedPaused = await watch.waitWhilePaused(ref, run);
    if (waitedPaused === null) return pausedAnswer();
    run.deadline += waitedPaused;
    let settle: (attempt: TAttempt) => void = () => {};
    const result = new Promise<TAttempt>((resolve) => (settle = resolve));
    const request: TRcptRequest = { run, host, address: question.address, domain: question.domain, randomAddress, smtputf8, taken: false, stopWaiting: new AbortController(), settle, result };
    const queue = this.pendingAt(key);
    queue.push(request);
    const dequeue = (r: TRcptRequest): void => {
      const index = queue.indexOf(r);
      if (index >= 0) queue.splice(index, 1);
    };
    for (;;) {
      try {
        await this.acquireSlot(run, gate, request.stopWaiting.signal);
      } catch (error) {
        if (request.taken) return result; // answered in another session's transaction
        dequeue(request);
        throw error;
      }
      if (request.taken) {
        gate.release();
        return result;
      }
      // paused while it waited for a slot: the slot is given back and the request waits for the resume
      if (watch.isPaused(key, ref)) {
        gate.release();
        dequeue(request);
        const waited = await watch.waitWhilePaused(ref, run);
        if (waited === null) return pausedAnswer();
        run.deadline += waited;
        queue.push(request);
        continue;
      }
      // No greeted session to take, while others of ours at this host are busy (a session retired, or the load grew):
      // the new session is opened in the background in this slot, and this request waits again, in the queue. A
      // busy session is free again after one transaction (milliseconds); a greeting can take 500 ms.
      if (gate.idleCount === 0 && gate.established > 0 && !this.pool.isClosing && !gate.isDown(now())) {
        this.pool.openInBackground(run, gate, host, ip);
        continue;
      }
      break;
    }
    dequeue(request);
    if (gate.isDown(now())) {
      gate.release();
      return downAnswer();
    }
    if (gate.refusesIdentity(now())) {
      gate.release();
      return identityAnswer();
    }
    const batch = [request];
    // the refusals the lead request may bring: its recipient, and its domain's catch-all probe while that is unknown
    const leadCost = randomAddress !== null && (await this.catchAll.known(question.domain)) === null ? 2 : 1;
    const pickBatch = (session: SmtpSession | null): TRcptRequest[] => {
      // as many requests as the session may still see refused (session-budget.ts: every recipient may be unknown,
      // and so may each domain's catch-all probe), within the host's learned per-session recipient limit
      // A group that opens a transaction starts with MAIL FROM: refused (a message rate limit, a sender check), it makes
      // each RCPT behind it an error too (503 need MAIL command), so the MAIL FROM takes one refusal of the room.
      const mailCost = session && session.transaction === null ? 1 : 0;
      const room = session ? Math.min(gate.budget.recipientRoom(session) - mailCost, gate.maxRecipients - session.recipients) : Number.POSITIVE_INFINITY;
      const most = Math.min(this.options.maxBatch, gate.maxBatch);
      const covered = new Set([question.domain]);
      let cost = leadCost;
      for (const other of [...queue]) {
        if (batch.length >= most || cost >= room) break;
        // a cancelled request leaves the queue by itself (its wait for a slot ends)
        if (other.taken || isCancelled(other) || other.smtputf8 !== smtputf8 || other.host.exchange !== host.exchange) continue;
        const extra = other.randomAddress !== null && !covered.has(other.domain) ? 2 : 1;
        if (cost + extra > room) continue;
        cost += extra;
        covered.add(other.domain);
        other.taken = true;
        dequeue(other);
        other.stopWaiting.abort(TAKEN_IN_BATCH);
        batch.push(other);
      }
      return batch;
    };
    try {
      const answers = await this.serveBatch(run, gate, host, ip, pickBatch, leadCost);
      for (const r of batch) r.settle(answers.get(r) ?? { type: 'retry', why: 'new_session', host, replyText: 'no reply in the batch' });
    } catch (error) {
      for (const r of batch) if (r !== request) r.settle({ type: 'failed', reason: 'smtp_error', host, text: `Verification failed unexpectedly: ${(error as Error).message}` });
      throw error;
    }
    return result;
  }

  /**
   * Holds a slot: takes (or opens) a session, runs one transaction for the batch, returns the session to the pool. A
   * reused session without room for the lead request's refusals (its recipient and a catch-all probe) retires first.
   */
  private async serveBatch(
    run: TRun,
    gate: HostGate,
    host: TMailHost,
    ip: string,
    pickBatch: (session: SmtpSession | null) => TRcptRequest[],
    leadCost: number,
  ): Promise<Map<TRcptRequest, TAttempt>> {
    const all = (batch: TRcptRequest[], attempt: TAttempt) => new Map(batch.map((r) => [r, attempt] as const));
    let session: SmtpSession | null = null;
    let batch: TRcptRequest[] = [];
    let swaps = 0;
    try {
      for (let tries = 0; tries < 2; tries++) {
        let reused: boolean;
        try {
          ({ session, reused } = await this.pool.checkout(run, gate, host, ip));
        } catch (error) {
          return all(batch.length > 0 ? batch : pickBatch(null), this.pool.describeOpenFailure(gate, host, error));
        }
        if (reused && Math.min(gate.budget.recipientRoom(session), gate.maxRecipients - session.recipients) < leadCost && swaps++ < 2) {
          await gate.quitInSlot(session);
          session = null;
          tries--;
          continue;
        }
        batch = pickBatch(session);
        // each request's transcript: the transaction's own lines and its own recipients only (batch-transcript.ts)
        session.sink = this.options.hostWatch.tap(`${ip}:${this.options.smtpPort}`, batchTranscriptSink(batch.map((r) => ({ address: r.address, domain: r.domain, sink: transcriptSink(this.options.clock, r.run) }))));
        try {
          const limitedBefore = gate.rateLimited;
          const seen = await runTransaction(session, gate, this.catchAll, this.options.mailFrom, batch, this.options.maxTransaction);
          const refusal = identityRefusalIn(seen);
          if (refusal) gate.refuseIdentity(refusal, this.options.clock.now());
          const answers = toAttempts(seen, host);
          const feedback = gateFeedback([...answers.values()], gate.rateLimited > limitedBefore);
          if (feedback === 'penalize') gate.penalize();
          else if (feedback === 'reward') gate.reward();
          return answers;
        } catch (error) {
          session.close();
          session = null;
          // A reused session may have been closed by the server while idle: try once more on a fresh one. (Not a cut to
          // learn from: a host closes idle sessions on its own clock; its cuts come with a 421, handled in the transaction.)
          if (reused && error instanceof SmtpFailure && error.kind === 'connection_lost') continue;
          if (error instanceof SmtpFailure) {
            // a pipelined group timed out: smaller groups for this host, and its recipients asked again at once
            if (error.kind === 'timeout' && !error.clipped && gate.shrinkBatchAfterTimeout(batch.length)) {
              return all(batch, { type: 'retry', why: 'new_session', host, replyText: `${error.message} to a group of ${batch.length} recipients: asked again in groups of ${gate.maxBatch}` });
            }
            const reason: TReasonCode = error.kind === 'timeout' ? 'smtp_timeout' : 'connection_failed';
            if (error.kind === 'timeout' && !error.clipped) gate.recordConnectFailure('smtp_timeout', this.options.clock.now());
            return all(batch, { type: 'failed', reason, host, text: `${REASON_TEXTS[reason]} ${error.message}.` });
          }
          throw error;
        }
      }
      return all(batch, { type: 'failed', reason: 'connection_failed', host, text: REASON_TEXTS.connection_failed });
    } finally {
      await this.pool.checkin(run, gate, host, ip, session);
    }
  }
}

/** The reply by which a transaction's host refused the verifier's identity (MAIL FROM's or a recipient's), if any. */
function identityRefusalIn<R>(seen: TTransactionResult<R>): string | null {
  const replies = [seen.mailRefused, ...[...seen.asked.values()].map((r) => r.rcpt)];
  const refusal = replies.find((r) => r !== undefined && r !== null && isIdentityRefusal(r));
  return refusal ? refusal.lines.join(' ') : null;
}

/** Each recipient's attempt from what its transaction saw (retry-policy.ts). */
function toAttempts<R>(seen: TTransactionResult<R>, host: TMailHost): Map<R, TAttempt> {
  const out = new Map<R, TAttempt>();
  for (const [r, why] of seen.skipped) out.set(r, skippedAttempt(why, host));
  if (seen.mailRefused) {
    const attempt = mailRefusedAttempt(seen.mailRefused, host);
    for (const r of seen.asked.keys()) out.set(r, attempt);
    return out;
  }
  const turn = { freshTurnedAway: seen.freshTurnedAway, cut: seen.cut, failureMessage: seen.failure?.message ?? null };
  for (const [r, replies] of seen.asked) out.set(r, recipientAttempt(replies, turn, host));
  return out;
}
