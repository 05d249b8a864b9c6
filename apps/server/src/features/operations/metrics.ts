import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { JOB_QUEUE_NAMES } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import { processRegistry } from '../../platform/observability/process-metrics';
import { JOB_OUTCOME_WINDOW_MINUTES, readScrapeFigures } from './queries';

export type TAppMetrics = {
  /** Records one answered request: its route pattern (`/api/v1/lists/:id`, never the raw URL), method, status, seconds. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** The Prometheus text exposition: this app's and this process's metrics, DB-derived gauges read now. */
  render(): Promise<string>;
  contentType: string;
};

/**
 * The metrics of one HTTP app. Counted as they happen: request latency (here) and verifications (the process
 * registry, platform/observability). Read from the database at each scrape: queue depth and age, jobs finished
 * in the last 15 minutes, credits charged by source (the ledger's roll-ups), payment events; every API process
 * answers the same DB figures (aggregate them with max(), not sum()).
 */
export function createAppMetrics(database: TDatabase): TAppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'verilead_process_' });
  const http = new Histogram({
    name: 'verilead_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const waiting = new Gauge({ name: 'verilead_job_queue_waiting', help: 'Jobs ready to run and not yet started, per queue', labelNames: ['queue'] as const, registers: [registry] });
  const active = new Gauge({ name: 'verilead_job_queue_active', help: 'Jobs running now, per queue', labelNames: ['queue'] as const, registers: [registry] });
  const oldest = new Gauge({
    name: 'verilead_job_queue_oldest_waiting_seconds',
    help: 'How long the oldest job ready to run has waited, per queue (0 when none waits)',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const finished = new Gauge({
    name: 'verilead_jobs_finished_recent',
    help: `Jobs that completed or failed (after their last attempt) in the last ${JOB_OUTCOME_WINDOW_MINUTES} minutes, per queue`,
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  });
  const charged = new Gauge({
    name: 'verilead_credits_charged',
    help: 'Credits charged since the start, by feature and detail (the ledger roll-ups; falls only when an organisation is deleted)',
    labelNames: ['feature', 'detail'] as const,
    registers: [registry],
  });
  const refunded = new Gauge({ name: 'verilead_credits_refunded', help: 'Credits refunded since the start, by feature and detail', labelNames: ['feature', 'detail'] as const, registers: [registry] });
  const payments = new Gauge({
    name: 'verilead_payment_events',
    help: 'Payment provider webhook events received, by provider, event type and whether they were processed',
    labelNames: ['provider', 'type', 'processed'] as const,
    registers: [registry],
  });
  const merged = Registry.merge([registry, processRegistry]);

  return {
    contentType: merged.contentType,
    observeRequest: (route, method, status, seconds) => http.observe({ route, method, status_code: String(status) }, seconds),
    render: async () => {
      const figures = await readScrapeFigures(database);
      for (const g of [waiting, active, oldest, finished, charged, refunded, payments]) g.reset();
      // Every queue appears, waiting or not, so an alert on it never sees "no data".
      for (const queue of JOB_QUEUE_NAMES) {
        waiting.set({ queue }, 0);
        active.set({ queue }, 0);
        oldest.set({ queue }, 0);
        finished.set({ queue, state: 'completed' }, 0);
        finished.set({ queue, state: 'failed' }, 0);
      }
      for (const q of figures.queues) {
        waiting.set({ queue: q.queue }, q.waiting);
        active.set({ queue: q.queue }, q.active);
        oldest.set({ queue: q.queue }, Math.max(0, q.oldest_waiting_seconds ?? 0));
      }
      for (const o of figures.outcomes) finished.set({ queue: o.queue, state: o.state }, o.n);
      for (const c of figures.credits) {
        charged.set({ feature: c.feature, detail: c.detail }, Number(c.charged));
        refunded.set({ feature: c.feature, detail: c.detail }, Number(c.refunded));
      }
      for (const p of figures.payments) {
        payments.set({ provider: p.provider, type: p.type, processed: 'true' }, p.processed);
        payments.set({ provider: p.provider, type: p.type, processed: 'false' }, p.received - p.processed);
      }
      return merged.metrics();
    },
  };
}
