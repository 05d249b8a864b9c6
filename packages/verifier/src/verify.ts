import { VerifierEngine } from './engine/engine';
import type { TVerificationResult, TVerifyOptions } from './types';

/**
 * Verify one address through every stage (syntax, local checks, DNS, SMTP, verdict) on a short-lived engine.
 * Never throws. A long-lived process should build one `VerifierEngine` and call its `verify` instead, so the
 * per-mail-host limits, caches and warm sessions are shared.
 */
export async function verifyEmail(address: string, options: TVerifyOptions = {}): Promise<TVerificationResult> {
  const engine = new VerifierEngine(options);
  try {
    return await engine.verify(address);
  } finally {
    await engine.close();
  }
}

/**
 * Verify a stream of addresses on an engine of its own (see `VerifierEngine.verifyMany`, which a long-lived process
 * should call on its shared engine instead).
 */
export async function* verifyMany(
  addresses: Iterable<string> | AsyncIterable<string>,
  options: TVerifyOptions & { signal?: AbortSignal } = {},
): AsyncGenerator<TVerificationResult> {
  const engine = new VerifierEngine(options);
  try {
    yield* engine.verifyMany(addresses, { concurrency: options.concurrency, signal: options.signal });
  } finally {
    await engine.close();
  }
}
