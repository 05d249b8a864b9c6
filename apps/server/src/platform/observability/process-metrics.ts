import { Counter, Registry } from 'prom-client';

/**
 * Metrics this process counts as work happens (as opposed to the gauges read from the database at scrape time,
 * features/operations/metrics.ts). One registry per process: the verifier is one per process too.
 */
export const processRegistry = new Registry();

/** Every verification the engine finished in this process, by verdict and reason code (instant and bulk verification; the finder's probes are not counted). */
export const verificationsCounter = new Counter({
  name: 'verilead_verifications_total',
  help: 'Verifications finished by the engine in this process, by status and reason code',
  labelNames: ['status', 'reason'] as const,
  registers: [processRegistry],
});

/** Counts one finished verification. */
export function countVerification(result: { status: string; reason: { code: string } }): void {
  verificationsCounter.inc({ status: result.status, reason: result.reason.code });
}
