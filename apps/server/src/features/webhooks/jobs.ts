import { z } from 'zod';
import type { TDatabase } from '../../platform/db/database';
import { defineJob, type TJobDefinition, type TJobQueue } from '../../platform/jobs/queue';
import { selectRows, sql } from '../../platform/db/database';
import { DELIVER_JOB, DELIVERY_MAX_ATTEMPTS, DISPATCH_JOB, dispatchWebhookEvents, runDeliveryJob, type TWebhookRuntime } from './service';

export type TWebhookJobOptions = TWebhookRuntime & {
  database: TDatabase;
  /** The queue, for the dispatcher to enqueue deliveries and its own next run. */
  getQueue: () => TJobQueue;
  /** How often the dispatcher reads the events table (ms). */
  dispatchIntervalMs?: number;
  lagMs?: number;
};

/** Webhook jobs: the dispatcher (reads events, re-queues itself) and one delivery attempt per run. */
export function createWebhookJobs(opts: TWebhookJobOptions): TJobDefinition[] {
  return [
    defineJob({
      name: DELIVER_JOB,
      payload: z.object({ deliveryId: z.uuid() }),
      maxAttempts: DELIVERY_MAX_ATTEMPTS,
      backoffMs: opts.backoffMs,
      handler: async ({ deliveryId }, ctx) => {
        const job = await opts.getQueue().get(ctx.jobId);
        await runDeliveryJob(opts.database, opts, deliveryId, { attempt: ctx.attempt, maxAttempts: job?.maxAttempts ?? DELIVERY_MAX_ATTEMPTS });
      },
    }),
    defineJob({
      name: DISPATCH_JOB,
      payload: z.object({}),
      maxAttempts: 1_000_000,
      backoffMs: 1_000,
      handler: async () => {
        const queue = opts.getQueue();
        await dispatchWebhookEvents(opts.database, queue, { lagMs: opts.lagMs, backoffMs: opts.backoffMs });
        await queue.enqueue(DISPATCH_JOB, {}, { delayMs: opts.dispatchIntervalMs ?? 1_000, maxAttempts: 1_000_000, backoffMs: 1_000 });
      },
    }),
  ];
}

/** Makes sure one dispatcher job is queued (call when a worker starts). */
export async function ensureWebhookDispatcher(database: TDatabase, queue: TJobQueue): Promise<void> {
  const rows = await selectRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from jobs where name = ${DISPATCH_JOB} and state in ('queued', 'active')`,
  );
  if ((rows[0]?.n ?? 0) === 0) await queue.enqueue(DISPATCH_JOB, {}, { maxAttempts: 1_000_000, backoffMs: 1_000 });
}
