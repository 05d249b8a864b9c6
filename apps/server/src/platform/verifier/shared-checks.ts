/**
 * Identical checks in flight share one verification: when an address is being verified with the same options (mode,
 * gibberish threshold, allow/block list, greylisting) and another call asks for it, that call waits for the same
 * answer instead of opening a second SMTP conversation with the same mail host. Every call still gets (and is
 * charged for) its own result: the answer is fresh, made while the call waited.
 *
 * Cancellation is per call: a call whose signal aborts rejects at once with its reason; the shared verification is
 * cancelled only when every call waiting for it has gone.
 */

type TVerifyFn<TOptions extends { signal?: AbortSignal }, TResult> = (address: string, options?: TOptions) => Promise<TResult>;

type TShared<TResult> = { promise: Promise<TResult>; controller: AbortController; callers: number };

/** The allow/block lists, by object: a member's preferences (and so its lists) are one object for seconds at a time. */
const listFingerprints = new WeakMap<object, string>();

function fingerprint(options: Record<string, unknown>): string {
  let key = '';
  for (const name of Object.keys(options).sort()) {
    const value = options[name];
    if (value === undefined) continue;
    if (value !== null && typeof value === 'object') {
      let text = listFingerprints.get(value);
      if (text === undefined) {
        text = JSON.stringify(value);
        listFingerprints.set(value, text);
      }
      key += `|${name}=${text}`;
    } else key += `|${name}=${String(value)}`;
  }
  return key;
}

export function shareIdenticalChecks<TOptions extends { signal?: AbortSignal }, TResult extends object>(
  verify: TVerifyFn<TOptions, TResult>,
): TVerifyFn<TOptions, TResult> {
  const inFlight = new Map<string, TShared<TResult>>();

  return (address, options) => {
    const { signal, ...rest } = (options ?? {}) as TOptions;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const key = `${address.trim()}${fingerprint(rest)}`;
    let shared = inFlight.get(key);
    if (!shared) {
      const controller = new AbortController();
      const started: TShared<TResult> = { promise: verify(address, { ...rest, signal: controller.signal } as TOptions), controller, callers: 0 };
      inFlight.set(key, started);
      const forget = () => {
        if (inFlight.get(key) === started) inFlight.delete(key);
      };
      started.promise.then(forget, forget);
      shared = started;
    }
    const joined = shared;
    joined.callers += 1;

    return new Promise<TResult>((resolve, reject) => {
      let done = false;
      const leave = () => {
        joined.callers -= 1;
        if (joined.callers > 0) return;
        // Nobody waits for it any more: the verification stops, and a later call starts afresh.
        if (inFlight.get(key) === joined) inFlight.delete(key);
        joined.controller.abort(signal?.reason);
      };
      const onAbort = () => {
        if (done) return;
        done = true;
        leave();
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      joined.promise.then(
        (result) => {
          if (done) return;
          done = true;
          joined.callers -= 1;
          signal?.removeEventListener('abort', onAbort);
          resolve({ ...result });
        },
        (err: unknown) => {
          if (done) return;
          done = true;
          joined.callers -= 1;
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  };
}
