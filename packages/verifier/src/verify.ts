import { VerifierEngine } from './engine/engine';
import type { TVerificationResult, TVerifyOptions } from './types';

/** Verify one address through every stage (syntax, local checks, DNS, SMTP, verdict). Never throws. */
export async function verifyEmail(address: string, options: TVerifyOptions = {}): Promise<TVerificationResult> {
  const engine = new VerifierEngine(options);
  try {
    return await engine.verify(address);
  } finally {
    await engine.close();
  }
}

function toAsyncIterator(addresses: Iterable<string> | AsyncIterable<string>): AsyncIterator<string> | Iterator<string> {
  if (Symbol.asyncIterator in addresses) return (addresses as AsyncIterable<string>)[Symbol.asyncIterator]();
  return (addresses as Iterable<string>)[Symbol.iterator]();
}

/**
 * Verify a stream of addresses, yielding each result as soon as it is ready (order not kept; `email` is the input).
 * The input is consumed lazily: at most `concurrency` addresses are being worked on (up to 4 × that when some wait
 * for a slot at a slow mail host) and finished results wait for the consumer before more input is read, so memory
 * stays flat however long the stream is. One engine is shared: DNS and catch-all
 * caches, per-mail-host concurrency and back-off, and SMTP sessions reused across recipients of one host.
 */
export async function* verifyMany(addresses: Iterable<string> | AsyncIterable<string>, options: TVerifyOptions = {}): AsyncGenerator<TVerificationResult> {
  const engine = new VerifierEngine(options);
  const concurrency = Math.max(1, options.concurrency ?? 50);
  const iterator = toAsyncIterator(addresses);
  const finished: TVerificationResult[] = [];
  let inFlight = 0;
  let exhausted = false;
  let wake: (() => void) | null = null;

  // Verifications parked at a busy or slow mail host do not count against `concurrency`, so one slow host
  // cannot stall the others; the hard cap of 4 × concurrency keeps memory bounded all the same.
  const maxInFlight = concurrency * 4;
  const hasRoom = (): boolean => !exhausted && inFlight - engine.parked + finished.length < concurrency && inFlight < maxInFlight;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  engine.onParkedChange = () => {
    if (hasRoom()) notify();
  };

  const pump = async (): Promise<void> => {
    while (hasRoom()) {
      const next = await iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      inFlight++;
      void engine.verify(next.value).then((result) => {
        inFlight--;
        finished.push(result);
        notify();
      });
    }
  };

  try {
    await pump();
    while (inFlight > 0 || finished.length > 0 || hasRoom()) {
      if (finished.length === 0 && !hasRoom()) await new Promise<void>((resolve) => (wake = resolve));
      while (finished.length > 0) {
        yield finished.shift() as TVerificationResult;
        await pump();
      }
      await pump();
    }
  } finally {
    engine.onParkedChange = null;
    if (!exhausted) await iterator.return?.();
    await engine.close();
  }
}
