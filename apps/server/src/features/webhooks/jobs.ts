import { z } from 'zod';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition, type TJobQueue } from '../../platform/jobs/jobs';
import { DELIVER_JOB, DELIVERY_MAX_ATTEMPTS, DISPATCH_JOB, dispatchWebhookEvents, runDeliveryJob, type TWebhookRuntime } from './service';

/** The record's database and queue (the dispatcher enqueues deliveries and its own next run), and the delivery settings. */
export type TWebhookJobOptions = Pick<TDeps, 'database' | 'queue'> & TWebhookRuntime & {
  /** How often the dispatcher reads the events table (ms). */
  dispatchIntervalMs?: number;
  lagMs?: number;
};

/**
 * Webhook jobs: one delivery attempt per run (the `webhooks` queue, so slow receivers never hold up other work)
 * and the dispatcher (reads events, re-queues itself; on the `maintenance` queue, so hanging deliveries never
 * hold it up either).
 */
export function createWebhookJobs(opts: TWebhookJobOptions): TJobDefinition[] {
  return [
    defineJob({
      name: DELIVER_JOB,
      queue: 'webhooks',
      payload: z.object({ deliveryId: z.uuid() }),
      maxAttempts: DELIVERY_MAX_ATTEMPTS,
      backoffMs: opts.backoffMs,
      handler: async ({ deliveryId }, ctx) => {
        await runDeliveryJob(opts.database, opts, deliveryId, { attempt: ctx.attempt, maxAttempts: ctx.maxAttempts });
      },
    }),
    defineJob({
      name: DISPATCH_JOB,
      queue: 'maintenance',
      payload: z.object({}),
      maxAttempts: 1_000_000,
      backoffMs: 1_000,
      handler: async () => {
        const queue = opts.queue;
        await dispatchWebhookEvents(opts.database, queue, { lagMs: opts.lagMs, backoffMs: opts.backoffMs });
        await queue.enqueue(DISPATCH_JOB, {}, { delayMs: opts.dispatchIntervalMs ?? 1_000, maxAttempts: 1_000_000, backoffMs: 1_000 });
      },
    }),
  ] as unknown as TJobDefinition[];
}

/** Makes sure one dispatcher job is queued (run when a worker starts). */
export async function ensureWebhookDispatcher(queue: TJobQueue): Promise<void> {
  if ((await queue.pending(DISPATCH_JOB)) === 0) await queue.enqueue(DISPATCH_JOB, {}, { maxAttempts: 1_000_000, backoffMs: 1_000 });
}
