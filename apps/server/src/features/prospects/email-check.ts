import type { TReasonCode, TVerificationStatus } from '@verilead/verifier';
import type { TVerifierPreferences } from '../settings';
import type { TVerifier } from '../../platform/verifier/verifier';

/**
 * How a reveal checks an address before showing it, with the member's verifier settings (allow and block lists,
 * gibberish threshold). Two policies:
 * - `boundedEmailCheck`, inside a request (POST /prospect/enrich): fastest turnaround, greylisting not waited for
 *   (the host's "try again later" is answered at once as unknown), every check of the request within one time
 *   budget, and cancelled when the request closes (the caller then gets the signal's reason). An address the budget
 *   leaves unconfirmed is `out_of_time`: not revealed, not charged.
 * - `thoroughEmailCheck`, in the list job: the member's mode (highest accuracy unless they chose otherwise), and
 *   greylisting waited out inside the check, on the mode's schedule: a job may take the minutes that needs.
 * Both check again, once, an address whose verdict only says the check itself failed (a timeout, a refused or reset
 * connection): on a busy machine or network that is seldom the mailbox's answer.
 */

export type TEmailVerdict = { status: TVerificationStatus; reason: TReasonCode } | { status: 'out_of_time' };
export type TEmailCheck = (email: string) => Promise<TEmailVerdict>;

/** Verdicts about the check, not the mailbox: worth one more try. */
const TRANSIENT: ReadonlySet<TReasonCode> = new Set(['smtp_timeout', 'connection_failed', 'service_unavailable', 'smtp_error']);
/** Pause before the thorough check's second try. */
const THOROUGH_RETRY_PAUSE_MS = 2_000;

type TPrefs = Pick<TVerifierPreferences, 'mode' | 'gibberishThreshold' | 'wbList'>;

function isTransient(v: { status: string; reason?: TReasonCode }): boolean {
  return v.status === 'unknown' && !!v.reason && TRANSIENT.has(v.reason);
}

/** Settles as `work` does, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** In a request: bounded by `deadline` (the request's budget) and cancelled by `closed` (the client went away). */
export function boundedEmailCheck(verifier: TVerifier, prefs: TPrefs, signals: { deadline: AbortSignal; closed?: AbortSignal }): TEmailCheck {
  const { deadline, closed } = signals;
  const signal = closed ? AbortSignal.any([deadline, closed]) : deadline;
  const once = async (email: string): Promise<TEmailVerdict> => {
    if (closed?.aborted) throw closed.reason;
    if (deadline.aborted) return { status: 'out_of_time' };
    try {
      const verifying = verifier.verify(email, { mode: 'fastest_turnaround', greylisting: 'defer', gibberishThreshold: prefs.gibberishThreshold, wbList: prefs.wbList, signal });
      verifying.catch(() => undefined); // once abandoned, its own end is nobody's answer
      // The engine stops a cancelled check at its next step (an SMTP command in flight is let finish): the request
      // does not wait for that, and a verdict that comes after the client left is not acted on.
      const r = await untilAborted(verifying, signal);
      if (closed?.aborted) throw closed.reason;
      return { status: r.status, reason: r.reason.code };
    } catch (err) {
      if (closed?.aborted) throw closed.reason;
      if (deadline.aborted) return { status: 'out_of_time' };
      throw err;
    }
  };
  return async (email) => {
    const first = await once(email);
    return 'reason' in first && isTransient(first) ? once(email) : first;
  };
}

/** In the list job: the member's mode, greylisting waited out. */
export function thoroughEmailCheck(verifier: TVerifier, prefs: TPrefs, sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))): TEmailCheck {
  const once = async (email: string): Promise<TEmailVerdict> => {
    const r = await verifier.verify(email, { mode: prefs.mode, greylisting: 'wait', gibberishThreshold: prefs.gibberishThreshold, wbList: prefs.wbList });
    return { status: r.status, reason: r.reason.code };
  };
  return async (email) => {
    const first = await once(email);
    if (!isTransient(first)) return first;
    await sleep(THOROUGH_RETRY_PAUSE_MS);
    return once(email);
  };
}
