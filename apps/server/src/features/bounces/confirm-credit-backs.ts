/**
 * The guarantee's claims settled by a re-check. A bounce report is a file the organisation writes, and an ESP event
 * is signed with the organisation's own key: neither proves on its own that the verdict was wrong. So each claim's
 * address is verified again (free of charge, greylisting waited out): a mail server that now refuses the address (or
 * a domain that no longer receives mail) confirms the bounce and the charge comes back in the ledger, once; a mail
 * server that still accepts it, or a domain that now accepts every address, declines the claim with what the check
 * found; a check that cannot tell is tried again later, and the claim is declined after the last try.
 */
import type { TVerificationStatus } from '@verilead/contracts';
import { refundCredits } from '../../platform/credits/ledger';
import type { TDeps } from '../../platform/deps';
import type { TMaintenanceTask } from '../../platform/jobs/maintenance';
import { lockPendingClaim, selectOrgsWithStaleClaims, selectPendingClaims, settleClaim } from './queries';

/** The job that settles an organisation's pending claims. */
export const CONFIRM_CREDIT_BACKS_JOB = 'bounces.confirm-credit-backs';
/** Claims one run re-checks; a run that had more queues the next at once. */
export const CLAIMS_PER_RUN = 50;
/** Re-checks of a claim that could not tell before it is declined. */
export const RECHECK_ATTEMPTS = 3;
/** The wait before a claim that could not be told is checked again. */
export const RECHECK_RETRY_DELAY_MS = 30 * 60_000;

export type TRecheckOutcome = 'credit' | 'decline' | 'retry';

/** What a re-check's status makes of a claim that had `attemptsBefore` inconclusive checks. */
export function judgeRecheck(status: TVerificationStatus, attemptsBefore: number): TRecheckOutcome {
  if (status === 'invalid') return 'credit';
  if (status === 'unknown') return attemptsBefore + 1 < RECHECK_ATTEMPTS ? 'retry' : 'decline';
  // valid: the mail server still accepts the address; catch_all: the domain accepts any address, the bounce cannot be confirmed.
  return 'decline';
}

export type TConfirmTotals = { checked: number; credited: number; declined: number; waiting: number };

/** Re-checks up to CLAIMS_PER_RUN of the organisation's pending claims and settles each under its row lock. */
export async function confirmCreditBacks(deps: Pick<TDeps, 'database' | 'verifier' | 'queue' | 'clock'>, orgId: string): Promise<TConfirmTotals> {
  const claims = await selectPendingClaims(deps.database.db, orgId, CLAIMS_PER_RUN);
  const totals: TConfirmTotals = { checked: 0, credited: 0, declined: 0, waiting: 0 };
  for (const claim of claims) {
    const result = await deps.verifier.verify(claim.email, { mode: 'highest_accuracy', greylisting: 'wait' });
    const outcome = judgeRecheck(result.status, claim.attempts);
    const settled = await deps.database.transaction(async (tx) => {
      const locked = await lockPendingClaim(tx, orgId, claim.verdictRef);
      // Settled meanwhile by another run, or checked by it since this run read it: that run's answer stands.
      if (!locked || locked.attempts !== claim.attempts) return null;
      const check = { attempts: locked.attempts + 1, checkedAt: deps.clock(), checkStatus: result.status, checkReason: result.reason.code };
      if (outcome === 'credit') {
        const entry = await refundCredits(tx, {
          orgId,
          userId: locked.userId ?? undefined,
          amount: locked.credits,
          reason: locked.ledgerReason ?? `Bounce credit-back: ${locked.email} hard-bounced`,
          sourceAgent: 'bounce_credit_back',
          objectType: 'bounce',
          objectId: locked.bounceId,
        });
        await settleClaim(tx, orgId, locked.verdictRef, { ...check, state: 'credited', transactionId: entry.transactionId });
      } else {
        await settleClaim(tx, orgId, locked.verdictRef, { ...check, state: outcome === 'decline' ? 'declined' : 'pending' });
      }
      return outcome;
    });
    if (!settled) continue;
    totals.checked += 1;
    if (settled === 'credit') totals.credited += 1;
    else if (settled === 'decline') totals.declined += 1;
    else totals.waiting += 1;
  }
  if (claims.length === CLAIMS_PER_RUN) await deps.queue.enqueue(CONFIRM_CREDIT_BACKS_JOB, { orgId }, { orgId });
  else if (totals.waiting > 0) await deps.queue.enqueue(CONFIRM_CREDIT_BACKS_JOB, { orgId }, { orgId, delayMs: RECHECK_RETRY_DELAY_MS });
  return totals;
}

/**
 * The maintenance task that re-queues the re-check of claims left waiting (a run that failed for good, a lost
 * retry): an organisation whose oldest waiting claim is an hour past its due time gets a run.
 */
export function createCreditBackSweep(deps: Pick<TDeps, 'database' | 'queue' | 'clock'>): TMaintenanceTask {
  return {
    name: 'bounce-credit-back-sweep',
    run: async () => {
      const before = new Date(deps.clock().getTime() - RECHECK_RETRY_DELAY_MS - 60 * 60_000);
      const orgs = await selectOrgsWithStaleClaims(deps.database.db, before, 100);
      for (const orgId of orgs) await deps.queue.enqueue(CONFIRM_CREDIT_BACKS_JOB, { orgId }, { orgId });
      return { requeued: orgs.length };
    },
  };
}
