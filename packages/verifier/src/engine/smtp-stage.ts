import type { TMailHost } from '../dns/resolve-mail-hosts';
import { cancellableSleep, throwIfCancelled } from './cancellation';
import type { CatchAllProbing } from './catch-all';
import type { TResolvedOptions, TRun } from './options';
import type { RcptBatcher } from './rcpt-batcher';
import { CATCH_ALL, failsOver, judgeAnswer, nextStep, NO_RETRIES, VALID, type TAttempt, type TOutcome } from './retry-policy';
import { REASON_TEXTS } from './verdict';

export type TSmtpVerdict = { outcome: TOutcome; greylistCount: number; mxHost: string | null };

/**
 * The pipeline's SMTP stage: attempts over the MX hosts with failover, each recipient asked through the RCPT batcher,
 * and between attempts what retry-policy.ts decides (again on a new session, a busy host's back-off, the greylist
 * schedule), waited on the engine's sleep.
 */
export class SmtpStage {
  constructor(
    private readonly options: TResolvedOptions,
    private readonly batcher: RcptBatcher,
    private readonly catchAll: CatchAllProbing,
  ) {}

  async verify(run: TRun, hosts: TMailHost[], address: string, domain: string, smtputf8: boolean): Promise<TSmtpVerdict> {
    const { clock } = this.options;
    const randomAddress = await this.catchAll.probeAddress(domain);
    let count = NO_RETRIES;
    for (;;) {
      throwIfCancelled(run.signal);
      const knownCatchAll = await this.catchAll.known(domain);
      const attempt = await this.attempt(run, hosts, address, domain, knownCatchAll === null ? randomAddress : null, smtputf8);
      const mxHost = attempt.host?.exchange ?? null;
      const done = (outcome: TOutcome): TSmtpVerdict => ({ outcome, greylistCount: count.greylistCount, mxHost });
      if (attempt.type === 'failed') return done({ status: 'unknown', reason: attempt.reason, text: attempt.text });
      if (attempt.type === 'answer') {
        const judgement = judgeAnswer(attempt, knownCatchAll);
        if (judgement.type === 'final') {
          await this.catchAll.learn(domain, judgement.lesson);
          return done(judgement.outcome);
        }
        if (judgement.type === 'ask_cache') return done((await this.catchAll.known(domain)) === true ? CATCH_ALL : VALID);
      }
      const step = nextStep(attempt, count, { schedule: run.schedule, greylisting: run.greylisting, now: clock.now(), deadline: run.deadline });
      count = step.count;
      if (step.type === 'stop') return done(step.outcome);
      if (step.type === 'wait') await cancellableSleep(this.options.sleep, step.ms, run.signal);
    }
  }

  /** One pass over the MX hosts in preference order (two addresses each) until one gives an answer. */
  private async attempt(run: TRun, hosts: TMailHost[], address: string, domain: string, randomAddress: string | null, smtputf8: boolean): Promise<TAttempt> {
    let last: TAttempt = { type: 'failed', reason: 'connection_failed', host: hosts[0] ?? null, text: REASON_TEXTS.connection_failed };
    for (const host of hosts) {
      for (const ip of host.addresses.slice(0, 2)) {
        throwIfCancelled(run.signal);
        if (this.options.clock.now() >= run.deadline) return { type: 'failed', reason: 'smtp_timeout', host, text: 'The total time allowed for this verification ran out.' };
        const result = await this.batcher.ask(run, { host, ip, address, domain, randomAddress, smtputf8 });
        if (!failsOver(result)) return result;
        last = result;
      }
    }
    return last;
  }
}
