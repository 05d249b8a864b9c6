import type { TJobQueue } from './jobs';

/**
 * The job queue as the dependency record holds it while the queue is being built. The job kinds are built from the
 * record (their handlers enqueue follow-up work through `deps.queue`) and the queue is built from the job kinds, so
 * the record gets this forwarder first and the composition root binds it to the queue right after building it. No
 * handler runs before that (the queue has not started), so a call before `bind` is a wiring mistake: it throws.
 */
export function createLateQueue(): { queue: TJobQueue; bind(queue: TJobQueue): void } {
  let bound: TJobQueue | null = null;
  const q = (): TJobQueue => {
    if (!bound) throw new Error('the job queue was used before the composition root built it');
    return bound;
  };
  return {
    queue: {
      enqueue: (name, payload, opts) => q().enqueue(name, payload, opts),
      cancel: (jobId, orgId) => q().cancel(jobId, orgId),
      cancelWhere: (name, match) => q().cancelWhere(name, match),
      get: (jobId) => q().get(jobId),
      pending: (name) => q().pending(name),
      runOnce: (opts) => q().runOnce(opts),
      runUntilIdle: (opts) => q().runUntilIdle(opts),
      schedule: (name, cron, payload) => q().schedule(name, cron, payload),
      maintain: () => q().maintain(),
      retryFailed: (queue, jobId, tx) => q().retryFailed(queue, jobId, tx),
      discardFailed: (queue, jobId, tx) => q().discardFailed(queue, jobId, tx),
      start: () => q().start(),
      stop: (opts) => q().stop(opts),
    },
    bind(queue) {
      bound = queue;
    },
  };
}
