import type { TEnrichLeadsData, TEnrichRequest, TEnrichSettings, TRevealResult } from '@verilead/contracts';
import type { TDatabase, TDb } from '../../platform/db/database';
import { cancelListJob, endSourceRun, queueSourceJob, startSourceRun } from '../../platform/bulk-lists/lifecycle';
import { readPausedReasons, readRunningSourceJobs, readSourceListPage } from '../../platform/bulk-lists/list-views';
import { advanceSourceChunk, percentDone } from '../../platform/bulk-lists/source-chain';
import type { TDeps } from '../../platform/deps';
import { isOutOfCredits } from '../../platform/credits/ledger';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TJobContext } from '../../platform/jobs/jobs';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity, type TRunningJobActivity } from '../activities';
import { getUserPreferences, getVerifierPreferences } from '../settings';
import { boundedEmailCheck, thoroughEmailCheck } from './email-check';
import { bumpRequest, enrichRequests, selectLatestListRequest, selectLeadChunk, updateListState, type TRequestRow } from './enrich-queries';
import { getList } from './lists';
import { loadPeople, revealPerson, type TRevealOutcome } from './reveal';
import { toPersonViews } from './views';

/**
 * Enrichment requests. A few chosen people are enriched in the request; a whole list runs as a chain of jobs, one
 * per chunk of 25 leads (`prospect.enrich_chunk`): the request row holds the cursor (the last lead done) and the
 * counters, each chunk enqueues the next in the transaction that saves its progress, and a cancel is seen between
 * leads. Charges go through reveal.ts (once per organisation and field), so a retried chunk never charges twice.
 * Chosen people are checked within the request's time budget (email-check.ts: bounded), a list's leads thoroughly.
 */

export const ENRICH_CHUNK_JOB = 'prospect.enrich_chunk';
export const ENRICH_CHUNK_SIZE = 25;
/** The time POST /prospect/enrich gives its address checks, all together; what is not confirmed by then stays hidden (free). */
export const ENRICH_REQUEST_BUDGET_MS = 30_000;
/** Addresses POST /prospect/enrich checks at once. */
const ENRICH_REQUEST_CONCURRENCY = 4;

/** An enrichment as the API shows it; `pausedReason` when it waits for a suspended organisation or owner. */
export function toRequestView(r: TRequestRow, pausedReason: string | null = null): TEnrichRequest {
  return {
    request_id: r.id,
    kind: r.kind,
    list_id: r.listId,
    list_name: r.listName,
    state: r.state,
    options: r.options as TEnrichSettings,
    total: r.total,
    processed: r.processed,
    progress: r.state === 'completed' ? 100 : (percentDone(r.processed, r.total) ?? 0),
    emails_revealed: r.emailsRevealed,
    phones_revealed: r.phonesRevealed,
    credits_charged: r.creditsCharged,
    error: r.error,
    paused_reason: enrichRequests.isRunning(r.state) ? pausedReason : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The member's enrichments still queued or running, with their progress. */
export async function listRunningEnrichments(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  return readRunningSourceJobs(exec, enrichRequests, who, (r) => {
    const view = toRequestView(r);
    return {
      type: 'enrich',
      queued: r.state !== 'in_progress',
      progress: view.progress,
      description: r.listName ? `The list "${r.listName}" (${view.total} leads)` : `${view.total} lead(s)`,
      metadata: { feature: 'prospect', request_id: r.id, list_id: r.listId, processed: view.processed },
    };
  });
}

export async function getRequest(exec: TDb, ctx: TCallerContext, id: string): Promise<TEnrichRequest> {
  const row = await enrichRequests.require(exec, ctx, id);
  return toRequestView(row, (await readPausedReasons(exec, row.orgId, [row], enrichRequests.isRunning)).get(row.id) ?? null);
}

/** A list's latest enrichment, with why it waits when it does (its organisation or owner suspended). */
export async function latestListRequest(exec: TDb, listId: string): Promise<TEnrichRequest | null> {
  const row = await selectLatestListRequest(exec, listId);
  return row ? toRequestView(row, (await readPausedReasons(exec, row.orgId, [row], enrichRequests.isRunning)).get(row.id) ?? null) : null;
}

export async function listRequests(exec: TDb, ctx: TCallerContext, q: { page: number; limit: number }, inProgressOnly = false) {
  return readSourceListPage(exec, enrichRequests, ctx, { ...q, states: inProgressOnly ? enrichRequests.running : undefined }, toRequestView);
}

async function resolveOptions(exec: TDb, ctx: TCallerContext, options?: TEnrichSettings): Promise<TEnrichSettings> {
  return options ?? (await getUserPreferences(exec, ctx)).prospect_settings.person_enrich_settings;
}

export type TEnrichLeadsRun = {
  /** Aborts when the request closes (the client went away): checks stop, the request is cancelled, nothing more is charged. */
  closed?: AbortSignal;
  /** The time the address checks may take together (default ENRICH_REQUEST_BUDGET_MS). */
  budgetMs?: number;
};

/** Runs `work` over `items`, `concurrency` at a time, in order; after a failure no new item starts, and the first failure is thrown. */
async function mapPool<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        out[i] = await work(items[i]!);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw (failure as { err: unknown }).err;
  return out;
}

/** POST /prospect/enrich: reveals up to 25 chosen people now, checking their addresses within the request's budget. */
export async function enrichLeads(
  deps: TDeps,
  verifier: TVerifier,
  ctx: TCallerContext,
  personIds: string[],
  options?: TEnrichSettings,
  run: TEnrichLeadsRun = {},
): Promise<TEnrichLeadsData> {
  const { database } = deps;
  const ids = [...new Set(personIds)];
  const people = await loadPeople(database.db, ids);
  if (people.length < ids.length) throwNotFound('Person');
  const [opts, prefs] = await Promise.all([resolveOptions(database.db, ctx, options), getVerifierPreferences(database.db, ctx)]);
  const { id: requestId } = await enrichRequests.insert(database.db, { orgId: ctx.orgId, userId: ctx.userId, kind: 'lead', state: 'in_progress', options: opts, personIds: ids, total: ids.length });
  const check = boundedEmailCheck(verifier, prefs, { deadline: AbortSignal.timeout(run.budgetMs ?? ENRICH_REQUEST_BUDGET_MS), closed: run.closed });
  const revealCtx = { orgId: ctx.orgId, userId: ctx.userId, sourceAgent: 'enrich_lead' as const, objectId: requestId };
  let outcomes: TRevealOutcome[];
  try {
    outcomes = await mapPool(people, ENRICH_REQUEST_CONCURRENCY, async (person) => {
      if (run.closed?.aborted) throw run.closed.reason;
      const out = await revealPerson(database, revealCtx, person, opts, check);
      await bumpRequest(database.db, requestId, person.id, out);
      return out;
    });
  } catch (failure) {
    const closed = run.closed?.aborted === true;
    const message = closed
      ? 'The request was closed before it finished; what was revealed until then stays revealed'
      : failure instanceof AppError
        ? failure.message
        : 'The enrichment stopped on an error';
    await enrichRequests.update(database.db, requestId, { state: closed ? 'cancelled' : 'failed', error: message });
    throw failure;
  }
  await enrichRequests.update(database.db, requestId, { state: 'completed' });
  await recordActivity(database.db, { orgId: ctx.orgId, userId: ctx.userId, type: 'enrich', description: `Enriched ${ids.length} prospect(s)`, metadata: { feature: 'prospect', request_id: requestId } });
  const results: TRevealResult[] = people.map((p, i) => ({ person_id: p.id, email: outcomes[i]!.email, phone: outcomes[i]!.phone }));
  return { request: await getRequest(database.db, ctx, requestId), people: await toPersonViews(database.db, ctx.orgId, people), results };
}

/** POST /prospect/list/enrich: starts enriching a list (one request at a time per list). */
export async function startListEnrich(deps: TDeps, ctx: TCallerContext, listId: string, options?: TEnrichSettings): Promise<TEnrichRequest> {
  const opts = await resolveOptions(deps.database.db, ctx, options);
  const id = await deps.database.transaction(async (tx) => {
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is already being enriched');
    if (Number(list.lead_count) === 0) throw new AppError('validation_failed', 'This list has no people yet; add some from the search first');
    const values = { orgId: ctx.orgId, userId: ctx.userId, listId, kind: 'list' as const, state: 'queued' as const, options: opts, total: Number(list.lead_count) };
    const request = await startSourceRun(tx, deps.queue, enrichRequests, values, { name: ENRICH_CHUNK_JOB, payload: (r) => ({ requestId: r.id }), noteJob: (jobId) => ({ jobId }) });
    await updateListState(tx, listId, 'in_progress');
    return request.id;
  });
  return getRequest(deps.database.db, ctx, id);
}

/** Stops a running list enrichment (what was revealed stays revealed and billed). */
export async function cancelRequest(deps: TDeps, ctx: TCallerContext, requestId: string): Promise<TEnrichRequest> {
  const row = await cancelListJob(deps, enrichRequests, ctx, requestId, {
    refusal: 'This enrichment has already finished',
    cancel: (r) => (enrichRequests.isRunning(r.state) ? { from: r.state, values: { state: 'cancelled' as const } } : null),
    onCancelled: async (tx, r) => {
      if (r.listId) await updateListState(tx, r.listId, 'cancelled');
    },
    describe: (r) => ({
      type: 'enrich',
      description: `Cancelled enriching ${r.listName ? `the list "${r.listName}"` : 'the leads'}: ${r.processed} of ${r.total} leads done`,
      metadata: { feature: 'prospect', request_id: r.id, list_id: r.listId, cancelled: true },
    }),
    recordActivity,
    ownerOnly: true,
    dropJobs: [],
    jobDropMayFail: true,
  });
  return toRequestView(row);
}

export async function cancelListEnrich(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TEnrichRequest> {
  await getList(deps.database.db, ctx, listId);
  const latest = await latestListRequest(deps.database.db, listId);
  if (!latest || !enrichRequests.isRunning(latest.state)) throw new AppError('conflict', 'This list is not being enriched');
  return cancelRequest(deps, ctx, latest.request_id);
}

/** POST /prospect/remove: a running enrichment is stopped, a finished one leaves the requests. */
export async function removeRequest(deps: TDeps, ctx: TCallerContext, requestId: string) {
  const r = await getRequest(deps.database.db, ctx, requestId);
  if (enrichRequests.isRunning(r.state)) {
    await cancelRequest(deps, ctx, requestId);
    return { message: 'The enrichment was stopped; what was revealed stays in your list' };
  }
  await enrichRequests.delete(deps.database.db, getVisibleScope(ctx), requestId);
  return { message: 'The request was removed' };
}

/** Ends a list enrichment still running (completed, or failed when credits ran out) with its list and history, inside `tx`. */
async function finishList(tx: TDb, requestId: string, state: 'completed' | 'failed', error: string | null) {
  await endSourceRun(tx, enrichRequests, requestId, { state, error }, {
    from: enrichRequests.running,
    onEnded: async (exec, r) => {
      if (r.listId) await updateListState(exec, r.listId, state === 'completed' ? 'processed' : 'cancelled');
      await recordActivity(exec, {
        orgId: r.orgId,
        userId: r.userId,
        type: state === 'completed' ? 'enrich' : 'failed',
        description: state === 'completed' ? `Enriched the list "${r.listName ?? ''}"` : `Enriching the list "${r.listName ?? ''}" stopped: ${error}`,
        metadata: { feature: 'prospect', request_id: r.id, list_id: r.listId },
      });
    },
  });
}

/**
 * One chunk of a list enrichment, a source chain on the bulk-list kernel (platform/bulk-lists/source-chain.ts): the
 * source is the list's leads after the request's cursor; each lead is revealed and counted as it goes (a cancel is
 * seen between leads); then, under the request's lock, the next chunk is queued or the request finishes.
 */
export async function runEnrichChunk(database: TDatabase, verifier: TVerifier, deps: Pick<TDeps, 'queue'>, requestId: string, job: Pick<TJobContext, 'isCancelled' | 'reportProgress'>) {
  const r = await enrichRequests.selectById(database.db, requestId);
  if (!r || !enrichRequests.isRunning(r.state) || !r.listId) return;
  const listId = r.listId;
  // A queued request starts running (its first chunk); a request in any other state is left alone.
  await enrichRequests.transition(database.db, null, requestId, ['queued'], { state: 'in_progress' });
  const ctx = { orgId: r.orgId, userId: r.userId, sourceAgent: 'enrich_list' as const, objectId: requestId };
  await advanceSourceChunk(database, {
    read: async () => {
      const personIds = await selectLeadChunk(database.db, listId, r.cursor, ENRICH_CHUNK_SIZE);
      const people = await loadPeople(database.db, personIds);
      return { personIds, byId: new Map(people.map((p) => [p.id, p])) };
    },
    work: async ({ personIds, byId }) => {
      const check = thoroughEmailCheck(verifier, await getVerifierPreferences(database.db, ctx));
      for (const personId of personIds) {
        if ((await enrichRequests.selectState(database.db, requestId)) !== 'in_progress' || (await job.isCancelled())) return false;
        const person = byId.get(personId);
        try {
          const out = person ? await revealPerson(database, ctx, person, r.options as TEnrichSettings, check) : { emailsRevealed: 0, phonesRevealed: 0, credits: 0 };
          await bumpRequest(database.db, requestId, personId, out);
        } catch (err) {
          if (!isOutOfCredits(err)) throw err;
          await database.transaction((tx) => finishList(tx, requestId, 'failed', err.message));
          return false;
        }
      }
      return true;
    },
    afterWork: async () => {
      const fresh = (await enrichRequests.selectById(database.db, requestId))!;
      await job.reportProgress(fresh.total ? (fresh.processed * 100) / fresh.total : 100);
    },
    lock: (tx) => enrichRequests.selectForUpdate(tx, requestId),
    due: (current) => current.state === 'in_progress',
    commit: async (tx, current, { personIds }) => {
      if (personIds.length < ENRICH_CHUNK_SIZE) return finishList(tx, current.id, 'completed', null);
      await enrichRequests.update(tx, requestId, { jobId: await queueSourceJob(deps.queue, r, ENRICH_CHUNK_JOB, { requestId }, { tx }) });
    },
  });
}
