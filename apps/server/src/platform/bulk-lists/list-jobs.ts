import { z } from 'zod';
import type { TJobQueueName } from '../../config';
import { ZRowChunk, type TRowChunk } from '../bulk/row-chunks';
import { defineJob, type TJobContext, type TJobDefinition } from '../jobs/jobs';
import { LIST_JOB_RETRY } from './lifecycle';

const ZListJobPayload = z.object({ listId: z.uuid() });

/**
 * A list product's work jobs, declared from one definition: the plan job (payload `{ listId }`, enqueued by
 * startListJob) splits a started list into chunk jobs (payload TRowChunk, enqueued by enqueueRowChunks), which any
 * worker takes. Both run on the product's queue and retry as LIST_JOB_RETRY says, so a chunk whose worker died is
 * taken up again. Both pause while the list's organisation or owner is suspended (`pausesWhileSuspended`): the list
 * keeps its state and progress and goes on once they are restored.
 */
export function defineListWorkJobs(def: {
  queue: TJobQueueName;
  plan: { name: string; run: (listId: string, ctx: TJobContext) => Promise<unknown> };
  chunk: { name: string; run: (chunk: TRowChunk, ctx: TJobContext) => Promise<unknown> };
}): TJobDefinition[] {
  return [
    defineJob({ name: def.plan.name, queue: def.queue, payload: ZListJobPayload, ...LIST_JOB_RETRY, pausesWhileSuspended: true, handler: (p, ctx) => def.plan.run(p.listId, ctx) }),
    defineJob({ name: def.chunk.name, queue: def.queue, payload: ZRowChunk, ...LIST_JOB_RETRY, pausesWhileSuspended: true, handler: (p, ctx) => def.chunk.run(p, ctx) }),
  ] as unknown as TJobDefinition[];
}
