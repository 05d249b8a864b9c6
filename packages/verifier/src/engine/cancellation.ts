import type { TSleep } from '../types';

// A cancelled call rejects with its signal's reason and nothing more is asked of any host on its behalf; what is
// already under way for it (an SMTP exchange that may carry other calls' recipients) ends in the background.

/** What a cancelled call rejects with: the signal's reason, as given (an AbortError DOMException when none was). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason;
}

/** Stops a run's own work once its call is cancelled. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** Wait through the injected sleep; a cancelled call stops waiting at once (an injected sleep may ignore the signal). */
export async function cancellableSleep(sleep: TSleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) throw abortReason(signal);
  let onAbort: (() => void) | null = null;
  try {
    await Promise.race([
      sleep(ms, signal),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } catch (error) {
    throw signal.aborted ? abortReason(signal) : error;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The call's answer: `work`'s, unless `signal` cancels the call first, which then rejects at once with its reason.
 * After a cancellation the work's own outcome (a verdict, or its rejection) settles nothing.
 */
export function cancellable<T>(signal: AbortSignal | undefined, start: () => Promise<T>): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const work = start();
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
