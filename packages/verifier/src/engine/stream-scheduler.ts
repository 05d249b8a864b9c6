import { setMaxListeners } from 'node:events';
import type { TCallOptions, TStreamOptions, TVerificationResult } from '../types';

/** Verifies one address of a stream, telling the stream when it waits for a host slot (it then holds no concurrency). */
export type TVerifyOne = (email: string, call: TCallOptions, onParked: (delta: number) => void) => Promise<TVerificationResult>;

/**
 * Verify a stream of addresses, yielding each result as soon as it is ready (order not kept; `email` is the input).
 * The input is read lazily: at most `concurrency` addresses are worked on (up to 4 × that while some wait for a slot
 * at a busy mail host; waiting for our own slot is never a timeout) and finished results wait for the consumer before
 * more input is read, so memory stays flat however long the stream is. A cancelled `signal` stops reading input and
 * ends the stream at once: the verifications in flight are cancelled and not yielded, nor is any result not yet taken
 * by the consumer.
 */
export async function* scheduleStream(
  addresses: Iterable<string> | AsyncIterable<string>,
  stream: TStreamOptions,
  verifyOne: TVerifyOne,
): AsyncGenerator<TVerificationResult> {
  const { concurrency: wanted, signal: outer, ...rest } = stream;
  const concurrency = Math.max(1, wanted ?? 50);
  // The stream's own signal, followed by its verifications (each listens to it while in flight: as many
  // listeners as addresses in flight, so no listener limit); it follows the caller's signal.
  const cancel = outer ? new AbortController() : null;
  if (cancel) setMaxListeners(0, cancel.signal);
  const signal = cancel?.signal;
  const follow = (): void => cancel?.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  const call: TCallOptions = { ...rest, signal };
  const iterator: AsyncIterator<string> | Iterator<string> =
    Symbol.asyncIterator in addresses ? (addresses as AsyncIterable<string>)[Symbol.asyncIterator]() : (addresses as Iterable<string>)[Symbol.iterator]();
  const finished: TVerificationResult[] = [];
  let inFlight = 0;
  let parked = 0;
  let exhausted = false;
  let wake: (() => void) | null = null;
  const maxInFlight = concurrency * 4;
  const cancelled = (): boolean => signal?.aborted === true;
  const hasRoom = (): boolean => !exhausted && !cancelled() && inFlight - parked + finished.length < concurrency && inFlight < maxInFlight;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onParked = (delta: number): void => {
    parked += delta;
    if (hasRoom()) notify();
  };
  const onAbort = (): void => notify();
  signal?.addEventListener('abort', onAbort);
  const pump = async (): Promise<void> => {
    while (hasRoom()) {
      const next = await iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      inFlight++;
      verifyOne(next.value, call, onParked).then(
        (result) => {
          inFlight--;
          if (!cancelled()) finished.push(result);
          notify();
        },
        () => {
          inFlight--;
          notify();
        },
      );
    }
  };
  try {
    await pump();
    while (inFlight > 0 || finished.length > 0 || hasRoom()) {
      if (finished.length === 0 && !hasRoom()) await new Promise<void>((resolve) => (wake = resolve));
      while (finished.length > 0 && !cancelled()) {
        yield finished.shift() as TVerificationResult;
        await pump();
      }
      if (cancelled()) finished.length = 0;
      await pump();
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    outer?.removeEventListener('abort', follow);
    if (!exhausted) await iterator.return?.();
  }
}
